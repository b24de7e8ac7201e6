#include <gtest/gtest.h>

#include "agent/os/topology_discovery.h"

namespace fairway::agent {
namespace {

TEST(GpuTypeTag, KnownFamilies) {
  EXPECT_EQ(gpu_type_tag("Tesla V100-SXM2-16GB"), "v100");
  EXPECT_EQ(gpu_type_tag("Tesla V100-PCIE-16GB"), "v100");
  EXPECT_EQ(gpu_type_tag("NVIDIA A100-SXM4-40GB"), "a100");
  EXPECT_EQ(gpu_type_tag("NVIDIA H100 80GB HBM3"), "h100");
  EXPECT_EQ(gpu_type_tag("Tesla P100-SXM2-16GB"), "p100");
  EXPECT_EQ(gpu_type_tag("Radeon Instinct MI50"), "mi50");
  EXPECT_EQ(gpu_type_tag("AMD Instinct MI250X"), "mi250x");
  EXPECT_EQ(gpu_type_tag("Tesla K40m"), "k40m");
  EXPECT_EQ(gpu_type_tag("Tesla T4"), "t4");
  EXPECT_EQ(gpu_type_tag("NVIDIA L40S"), "l40s");
  EXPECT_EQ(gpu_type_tag("NVIDIA GH200 480GB"), "gh200");
}

TEST(GpuTypeTag, UnknownModelIsLowerCasedWithDashes) {
  EXPECT_EQ(gpu_type_tag("NVIDIA GeForce RTX 4090"), "nvidia-geforce-rtx-4090");
  EXPECT_EQ(gpu_type_tag("Intel Data Center GPU Max 1550"), "intel-data-center-gpu-max-1550");
  EXPECT_EQ(gpu_type_tag("AMD Radeon R9 200 / HD 7900 Series"), "amd-radeon-r9-200-/-hd-7900-series");
  EXPECT_EQ(gpu_type_tag(""), "");
}

TEST(GpuTypeTag, MemoryAndFormFactorWordsAreNoFamily) {
  // "SXM2", "HBM3", "80GB" look like model numbers but are not families.
  EXPECT_EQ(gpu_type_tag("SXM2 80GB HBM3"), "sxm2-80gb-hbm3");
}

}  // namespace
}  // namespace fairway::agent
