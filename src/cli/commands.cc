// The table of subcommands: one row each (see command.h).
#include "cli/command.h"

namespace tfgpu {

CommandRunner define_doctor(CLI::App& sub);
CommandRunner define_fleet(CLI::App& sub);
CommandRunner define_probe(CLI::App& sub);
CommandRunner define_matrix(CLI::App& sub);
CommandRunner define_explain(CLI::App& sub);
CommandRunner define_plan(CLI::App& sub);
CommandRunner define_verify(CLI::App& sub);
CommandRunner define_bench(CLI::App& sub);
CommandRunner define_verify_child(CLI::App& sub);
CommandRunner define_bench_child(CLI::App& sub);
CommandRunner define_probe_driver(CLI::App& sub);
CommandRunner define_completions(CLI::App& sub);
CommandRunner define_man(CLI::App& sub);

std::span<const CommandSpec> command_table() {
  static const CommandSpec kCommands[] = {
      {"doctor", "Will TensorFlow on this machine use the GPU? If not, exactly what must change", define_doctor,
       false, Outputs::kTextJsonMarkdown, {"tfgpu doctor", "tfgpu doctor --snapshot other-machine.json --markdown > report.md"}},
      {"fleet", "Many machines' snapshots at once: configurations, findings by node, drift", define_fleet,
       false, Outputs::kTextJsonMarkdown, {"tfgpu fleet snapshots/", "tfgpu fleet --json --lock tfgpu.lock.toml snapshots/ > fleet.json"}},
      {"probe", "Read the four layers (hardware, driver, CUDA/cuDNN, Python/TF) into a snapshot", define_probe,
       false, Outputs::kTextJson, {"tfgpu probe", "tfgpu probe --json --redact --out snapshot.json"}},
      {"matrix", "Answer version questions from the sourced knowledge base", define_matrix,
       false, Outputs::kTextJson, {"tfgpu matrix --tf 2.12 --os windows", "tfgpu matrix --driver 522.06 --gpu \"RTX 3060\""}},
      {"explain", "Read a TensorFlow log or bug report: root cause and fix", define_explain,
       false, Outputs::kTextJsonMarkdown, {"tfgpu explain train.log", "python train.py 2>&1 | tfgpu explain"}},
      {"plan", "Choose a consistent version set and write reproducible setup files", define_plan,
       false, Outputs::kTextJsonMarkdown, {"tfgpu plan --tf 2.15 --out setup/", "tfgpu plan --os windows --gpu \"RTX 3060\" --driver 522.06"}},
      {"verify", "Prove the GPU works end to end (driver, memory, a kernel, optionally TensorFlow)", define_verify,
       false, Outputs::kTextJsonMarkdown, {"tfgpu verify", "tfgpu verify --python .venv/bin/python --markdown"}},
      {"bench", "Measure the GPU: GEMM FP32/TF32/FP16/BF16 and bandwidth against its peak", define_bench,
       false, Outputs::kTextJsonMarkdown, {"tfgpu bench --quick", "tfgpu bench --sizes 1024,4096 --json > bench.json"}},
      {"__verify-child", "Internal: the driver check of `verify`, run in a child process", define_verify_child, true},
      {"__bench-child", "Internal: the measurements of `bench`, run in a child process", define_bench_child, true},
      {"__probe-driver", "internal: load one vendor library in a child process and print what it says (JSON)",
       define_probe_driver, true},
      {"__completions", "Internal: print the shell completion script (bash, zsh, fish, powershell)",
       define_completions, true},
      {"__man", "Internal: print the man page tfgpu(1)", define_man, true},
  };
  return kCommands;
}

}  // namespace tfgpu
