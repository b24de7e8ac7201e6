#include "coordinator/core/node_count_bins.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

ResourceRequest cores(std::int32_t n) {
  ResourceRequest r;
  r.cores = n;
  return r;
}

TEST(NodeCountBins, NodesFromTheRequestOrFromCoresRoundedUp) {
  EXPECT_EQ(requested_nodes(cores(16), 16), 1);
  EXPECT_EQ(requested_nodes(cores(17), 16), 2);
  EXPECT_EQ(requested_nodes(cores(1), 16), 1);
  ResourceRequest r;
  r.nodes = 3;
  r.cores = 4;
  EXPECT_EQ(requested_nodes(r, 16), 3);
  EXPECT_EQ(requested_nodes(cores(40), 0), 40) << "no node size known: cores";
}

TEST(NodeCountBins, FindsTheBinHoldingTheCount) {
  std::vector<NodeBinConfig> bins(3);
  bins[0].name = "big";
  bins[0].min_nodes = 100;
  bins[1].name = "mid";
  bins[1].min_nodes = 10;
  bins[1].max_nodes = 99;
  bins[2].name = "small";
  bins[2].min_nodes = 2;
  bins[2].max_nodes = 9;
  EXPECT_EQ(find_node_bin(bins, 100000), 0u);
  EXPECT_EQ(find_node_bin(bins, 100), 0u);
  EXPECT_EQ(find_node_bin(bins, 99), 1u);
  EXPECT_EQ(find_node_bin(bins, 10), 1u);
  EXPECT_EQ(find_node_bin(bins, 2), 2u);
  EXPECT_FALSE(find_node_bin(bins, 1).has_value());
}

}  // namespace
}  // namespace fairway
