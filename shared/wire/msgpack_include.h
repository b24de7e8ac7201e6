// Internal to fairway_wire and its tests: the one place msgpack-cxx is included, with the
// settings the library is built with. Include-only; thread safety is msgpack's (none shared).
#pragma once

// Boost is not a dependency of ours; msgpack-cxx only needs it for Boost adaptors.
#ifndef MSGPACK_NO_BOOST
#define MSGPACK_NO_BOOST
#endif

// msgpack-cxx is third-party code compiled under our strict warnings; silence it only here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wnull-dereference"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wcast-align"
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#include <msgpack.hpp>
#pragma GCC diagnostic pop
