/* The MPI program the MPI launch tests run: an allreduce over every rank, each rank
 * printing its node and the CPUs it may run on. The node is SLURMD_NODENAME as the node's
 * step told the rank's parent (mpirun's orted, Hydra's proxy, or srun's relay for a direct
 * launch): Hydra hands every rank mpiexec's own environment, and the loopback cluster's
 * nodes share one host name. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* NAME's value in /proc/PID/environ, into out; 0 when absent. */
static int environ_of(pid_t pid, const char* name, char* out, size_t size) {
  char path[64], buf[65536];
  snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
  FILE* f = fopen(path, "r");
  if (!f) return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  size_t len = strlen(name);
  for (size_t i = 0; i < n; i += strlen(buf + i) + 1) {
    if (strncmp(buf + i, name, len) == 0 && buf[i + len] == '=') {
      snprintf(out, size, "%s", buf + i + len + 1);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int value = rank + 1, sum = 0;
  MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  cpu_set_t set;
  CPU_ZERO(&set);
  sched_getaffinity(0, sizeof set, &set);
  char cpus[512] = "";
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) snprintf(cpus + strlen(cpus), sizeof cpus - strlen(cpus), "%s%d", cpus[0] ? "," : "", c);
  }
  char node[256] = "?";
  if (!environ_of(getppid(), "SLURMD_NODENAME", node, sizeof node) && getenv("SLURMD_NODENAME")) {
    snprintf(node, sizeof node, "%s", getenv("SLURMD_NODENAME"));
  }
  printf("RANK %d SIZE %d NODE %s CPUS %s SUM %d %s\n", rank, size, node, cpus, sum,
         sum == size * (size + 1) / 2 ? "OK" : "WRONG");
  fflush(stdout);
  MPI_Finalize();
  return 0;
}
