// libFuzzer target for what a step's task may write to its PMI socket, and the fence bytes
// srun and the relays pass: any bytes must parse or be refused, never read out of bounds or
// allocate what a forged length claims. Built and run by tests/fuzz/run_wire_fuzz.sh pmi.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "agent/step/pmi_wire.h"
#include "shared/wire/step_exchange.h"

using namespace fairway;

// With FAIRWAY_FUZZ_SEED_DIR set: an MPICH PMI-1 conversation and a PMI-2 one.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("FAIRWAY_FUZZ_SEED_DIR");
  if (dir == nullptr) return 0;
  std::ofstream(std::string(dir) + "/seed-pmi1") << "\x01"
                                                 << "cmd=init pmi_version=1 pmi_subversion=1\ncmd=get_maxes\n"
                                                 << "cmd=put kvsname=1.0 key=P0 value=x\ncmd=barrier_in\n"
                                                 << "mcmd=spawn\nnprocs=1\nendcmd\n";
  std::ofstream(std::string(dir) + "/seed-pmi2")
      << "\x02"
      << "45    cmd=fullinit;pmijobid=1.0;pmirank=0;threaded=FALSE;"
      << "30    cmd=kvs-put;key=k;value=a;;b;";
  std::ofstream(std::string(dir) + "/seed-fence")
      << "\x03" << wire::join_fence_blobs({wire::encode_fence_pairs({{"k", "v"}}), ""});
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string in(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0:
    case 1: {
      const agent::PmiWire wire = data[0] % 3 == 1 ? agent::PmiWire::kV1 : agent::PmiWire::kV2;
      std::string buffer = in;
      while (true) {
        const std::size_t before = buffer.size();
        auto cmd = agent::take_pmi_command(buffer, wire);
        if (!cmd || !*cmd) break;
        if (buffer.size() >= before) __builtin_trap();  // a command always consumes bytes
        // What we format from what we read, we read back.
        std::string again = agent::format_pmi_reply(wire, (*cmd)->cmd, (*cmd)->args);
        (void)agent::take_pmi_command(again, wire);
      }
      break;
    }
    default: {
      auto blobs = wire::split_fence_blobs(in, 2);
      if (blobs) {
        for (const std::string& b : *blobs) (void)wire::decode_fence_pairs(b);
        if (wire::join_fence_blobs(*blobs) != in) __builtin_trap();
      }
      break;
    }
  }
  return 0;
}
