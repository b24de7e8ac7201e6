#include "agent/os/hwloc_topology.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "agent/os/topology_discovery.h"
#include "tests/agent/os/topology_paths.h"

namespace fairway::agent {
namespace {

std::string write_temp_file(const std::string& name, const std::string& content) {
  const std::string path = ::testing::TempDir() + "fairway_hwloc_" + name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

void expect_invalid_naming(const Error& error, const std::string& path, const std::string& what) {
  EXPECT_EQ(error.code, ErrorCode::kInvalidArgument);
  EXPECT_NE(error.message.find(path), std::string::npos) << error.message;
  EXPECT_NE(error.message.find(what), std::string::npos) << error.message;
}

TEST(HwlocTopologyLoadXml, LoadsARealMachine) {
  const std::string path = testing::shared_topology("24em64t-2n6c2t-pci.xml");
  auto topology = HwlocTopology::load_xml(path);
  ASSERT_TRUE(topology.has_value()) << topology.error().message;
  EXPECT_EQ(topology->source(), path);
  EXPECT_EQ(hwloc_get_nbobjs_by_type(topology->get(), HWLOC_OBJ_PU), 24);
  // I/O discovery is on: the PCI devices of the export are kept.
  EXPECT_GT(hwloc_get_nbobjs_by_type(topology->get(), HWLOC_OBJ_PCI_DEVICE), 0);
}

TEST(HwlocTopologyLoadXml, MissingFileNamesThePath) {
  const std::string path = ::testing::TempDir() + "fairway_no_such_topology.xml";
  auto topology = HwlocTopology::load_xml(path);
  ASSERT_FALSE(topology.has_value());
  expect_invalid_naming(topology.error(), path, "cannot open");
  auto node = discover_from_xml(path);
  ASSERT_FALSE(node.has_value());
  expect_invalid_naming(node.error(), path, "No such file");
}

TEST(HwlocTopologyLoadXml, EmptyFileNamesThePath) {
  const std::string path = write_temp_file("empty.xml", "");
  auto node = discover_from_xml(path);
  ASSERT_FALSE(node.has_value());
  expect_invalid_naming(node.error(), path, "empty");
}

TEST(HwlocTopologyLoadXml, GarbageFileNamesThePath) {
  const std::string path = write_temp_file("garbage.xml",
                                           "\x7f"
                                           "ELF\x02\x01 this is not XML at all");
  auto node = discover_from_xml(path);
  ASSERT_FALSE(node.has_value());
  // With libhwloc-plugins (pulled in by Open MPI and PMIx) the libxml2 backend refuses the
  // file already in hwloc_topology_set_xml; without it, the load does: either names XML.
  expect_invalid_naming(node.error(), path, "XML");
}

TEST(HwlocTopologyLoadXml, XmlThatIsNoTopologyIsRejected) {
  const std::string path =
      write_temp_file("other.xml", "<?xml version=\"1.0\"?>\n<config><a>1</a></config>\n");
  auto node = discover_from_xml(path);
  ASSERT_FALSE(node.has_value());
  expect_invalid_naming(node.error(), path, "rejected");
}

TEST(HwlocTopologyLoadXml, DirectoryIsUnreadable) {
  const std::string path = testing::shared_topology("");
  auto node = discover_from_xml(path);
  ASSERT_FALSE(node.has_value());
  expect_invalid_naming(node.error(), path, "cannot read");
}

TEST(HwlocTopologyLoadXml, EmptyPathIsAnError) {
  auto node = discover_from_xml("");
  ASSERT_FALSE(node.has_value());
  EXPECT_EQ(node.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(node.error().message.find("path is empty"), std::string::npos);
}

TEST(HwlocTopologyLoadHost, LoadsWithIoDevicesKept) {
  auto topology = HwlocTopology::load_host();
  ASSERT_TRUE(topology.has_value()) << topology.error().message;
  EXPECT_EQ(topology->source(), "host");
  EXPECT_GT(hwloc_get_nbobjs_by_type(topology->get(), HWLOC_OBJ_PU), 0);
  EXPECT_EQ(hwloc_topology_is_thissystem(topology->get()), 1);
  EXPECT_EQ(hwloc_topology_get_flags(topology->get()) & HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM,
            HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM);
  hwloc_type_filter_e filter{};
  ASSERT_EQ(hwloc_topology_get_type_filter(topology->get(), HWLOC_OBJ_OS_DEVICE, &filter), 0);
  EXPECT_EQ(filter, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
}

TEST(HwlocTopologyLoadXml, XmlIsNotThisSystem) {
  auto topology = HwlocTopology::load_xml(testing::fixture_topology("kebnekaise-v100.xml"));
  ASSERT_TRUE(topology.has_value()) << topology.error().message;
  EXPECT_EQ(hwloc_topology_get_flags(topology->get()) & HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM, 0ul);
}

TEST(HwlocTopology, MovedFromKeepsOneOwner) {
  auto first = HwlocTopology::load_xml(testing::fixture_topology("kebnekaise-v100.xml"));
  ASSERT_TRUE(first.has_value());
  hwloc_topology_t raw = first->get();
  HwlocTopology second = std::move(*first);
  EXPECT_EQ(second.get(), raw);
  EXPECT_EQ(hwloc_get_nbobjs_by_type(second.get(), HWLOC_OBJ_CORE), 28);
}

}  // namespace
}  // namespace fairway::agent
