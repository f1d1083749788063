// `tfgpu matrix`: version questions answered from the knowledge base. Parses the
// options, runs kb::run_matrix (pure) and renders it; --os defaults to the OS tfgpu
// runs on.
#include <memory>

#include "cli/command.h"
#include "report/text_wrap.h"
#include "cli/usage.h"
#include "kb/kb.h"
#include "kb/matrix.h"
#include "report/matrix_report.h"
#include "util/error.h"
#include "util/json_text.h"

namespace tfgpu {

namespace {

struct MatrixOptions {
  std::string os;
  std::string tf, cuda, cudnn, python, driver, gpu;
};

std::optional<std::string> opt(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return s;
}

}  // namespace

CommandRunner define_matrix(CLI::App& sub) {
  auto o = std::make_shared<MatrixOptions>();
  sub.add_option("--tf", o->tf, "TensorFlow release: what it needs on --os (e.g. 2.10)")
      ->option_text("VERSION")
      ->check(usage::version_value("2.16", 2, 3));
  sub.add_option("--os", o->os, "linux, windows or macos (default: the OS tfgpu runs on)")->option_text("OS");
  sub.add_option("--cuda", o->cuda, "CUDA toolkit (11.8, or a major: 11): the TF releases that use it")
      ->option_text("VERSION")
      ->check(usage::version_value("11.8", 1, 3));
  sub.add_option("--cudnn", o->cudnn, "cuDNN (e.g. 8.6): the TF releases that accept it")
      ->option_text("VERSION")
      ->check(usage::version_value("8.6", 1, 4));
  sub.add_option("--python", o->python, "Python (e.g. 3.12): the TF releases with wheels for it")
      ->option_text("VERSION")
      ->check(usage::version_value("3.12", 2, 3));
  sub.add_option("--driver", o->driver, "NVIDIA driver (e.g. 522.06): newest CUDA it runs, usable TF releases")
      ->option_text("VERSION")
      ->check(usage::version_value("522.06", 1, 3));
  sub.add_option("--gpu", o->gpu, "GPU name or PCI id (\"RTX 3060\", 10de:2504): which TF releases have kernels for it")
      ->option_text("NAME|ID");
  sub.footer("Options combine: the answer is the TF releases every option accepts. --json output: docs/matrix-json.md");
  return [o](CommandIo& io) -> int {
    kb::MatrixQuery q;
    q.platform = io.host.platform();
    if (!o->os.empty()) {
      auto p = kb::parse_platform(o->os);
      if (!p) {
        io.err << "tfgpu matrix: " << p.error().message << "\n";
        return exit_code_for(p.error());
      }
      q.platform = *p;
    }
    q.tf = opt(o->tf);
    q.cuda = opt(o->cuda);
    q.cudnn = opt(o->cudnn);
    q.python = opt(o->python);
    q.driver = opt(o->driver);
    q.gpu = opt(o->gpu);

    auto kb = kb::load_for_command(io.host, io.global.kb_dir);
    if (!kb) {
      io.err << "tfgpu matrix: " << kb.error().message << "\n";
      return exit_code_for(kb.error());
    }
    auto result = kb::run_matrix(*kb, q);
    if (!result) {
      io.err << "tfgpu matrix: " << result.error().message << "\n";
      return exit_code_for(result.error());
    }
    if (io.global.format == OutputFormat::kJson) io.out << dump_json(matrix_to_json(*result)) << "\n";
    else io.out << report::wrap_text(render_matrix_text(*result), io.global.width);
    return kExitOk;
  };
}

}  // namespace tfgpu
