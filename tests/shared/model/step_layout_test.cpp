// A step's nodes and tasks inside its job, as srun's options choose them (Slurm's step
// layout): a subset of the job's nodes, refused with the option named when the job lacks it.
#include "shared/model/step_layout.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

const std::vector<JobNodeRoom> kJob = {{"vm1", 2}, {"vm2", 2}};
const TaskLayout kJobTasks{4, 0, 0};  // sbatch -N 2 -n 4

StepLayout ok(const StepAsk& ask) {
  auto l = step_layout(ask, kJob, kJobTasks);
  EXPECT_TRUE(l) << l.error().message;
  return l ? *l : StepLayout{};
}

std::string error(const StepAsk& ask) {
  auto l = step_layout(ask, kJob, kJobTasks);
  return l ? "(accepted)" : l.error().message;
}

TEST(StepLayout, MpirunsDaemonLandsOnTheNodeItNames) {
  // srun --ntasks-per-node=1 --nodes=1 --nodelist=vm2 --ntasks=1 orted
  StepAsk orted;
  orted.nodes = 1;
  orted.ntasks = 1;
  orted.ntasks_per_node = 1;
  orted.nodelist = {"vm2"};
  const auto l = ok(orted);
  EXPECT_EQ(l.nodes, (std::vector<std::size_t>{1}));
  EXPECT_EQ(l.tasks_per_node, (std::vector<std::int32_t>{1}));
  // Both nodes, one daemon each.
  orted.nodes = 2;
  orted.ntasks = 2;
  orted.nodelist = {"vm1", "vm2"};
  EXPECT_EQ(ok(orted).tasks_per_node, (std::vector<std::int32_t>{1, 1}));
}

TEST(StepLayout, NodesAndTasksAreASubsetOfTheJobs) {
  EXPECT_EQ(ok({}).tasks_per_node, (std::vector<std::int32_t>{2, 2}));  // the job's own layout
  StepAsk one_node;
  one_node.nodes = 1;
  EXPECT_EQ(ok(one_node).nodes, (std::vector<std::size_t>{0}));
  StepAsk excluded;
  excluded.exclude = {"vm1"};
  excluded.ntasks = 2;
  const auto l = ok(excluded);
  EXPECT_EQ(l.nodes, (std::vector<std::size_t>{1}));
  EXPECT_EQ(l.tasks_per_node, (std::vector<std::int32_t>{2}));
  StepAsk per_node;
  per_node.ntasks_per_node = 2;
  EXPECT_EQ(ok(per_node).tasks_per_node, (std::vector<std::int32_t>{2, 2}));
  StepAsk wide;
  wide.ntasks = 2;
  wide.cpus_per_task = 2;
  EXPECT_EQ(ok(wide).tasks_per_node, (std::vector<std::int32_t>{1, 1}));
  EXPECT_EQ(ok(wide).cpus_per_task, 2);
}

TEST(StepLayout, WhatTheJobDoesNotHaveIsRefusedByName) {
  StepAsk a;
  a.nodelist = {"vm9"};
  EXPECT_EQ(error(a), "--nodelist: node vm9 is not one of the job's nodes");
  a = {};
  a.nodes = 3;
  EXPECT_EQ(error(a), "the step asks for 3 nodes, the job has 2 (of 2)");
  a = {};
  a.ntasks = 5;
  EXPECT_EQ(error(a),
            "the step asks for 5 tasks on 2 nodes: the job holds room for 4 there (1 cores per task)");
  a = {};
  a.nodes = 1;
  a.nodelist = {"vm1", "vm2"};
  EXPECT_EQ(error(a), "--nodes=1: --nodelist names 2 nodes");
  a = {};
  a.ntasks_per_node = 3;
  EXPECT_EQ(error(a), "the step needs 3 cores on vm1 (3 tasks x 1 cpus-per-task), the job holds 2 there");
  a = {};
  a.exclude = {"vm1", "vm2"};
  EXPECT_EQ(error(a), "the step asks for 0 nodes, the job has 0 not excluded (of 2)");
}

}  // namespace
}  // namespace fairway
