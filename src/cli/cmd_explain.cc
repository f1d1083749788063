// `tfgpu explain [FILE|-]`: what went wrong in a pasted log, bug report or traceback.
// The file is streamed (any size); the command only wires the options to
// explain_log() and a renderer.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/command.h"
#include "report/text_wrap.h"
#include "cli/usage.h"
#include "cli/explain_fix.h"
#include "explain/explain.h"
#include "host/host.h"
#include "kb/kb.h"
#include "report/explain_report.h"
#include "util/error.h"
#include "util/text_encoding.h"

namespace tfgpu {

CommandRunner define_explain(CLI::App& sub) {
  auto path = std::make_shared<std::string>();
  auto max_findings = std::make_shared<size_t>(5);
  sub.add_option("FILE", *path,
                 "Log, traceback or bug report to read ('-' or none = standard input, when something is piped in)");
  sub.add_option("--max-findings", *max_findings, "Findings shown in text output (all are in --json)")
      ->option_text("N")
      ->check(usage::whole_number(1, 100));
  return [path, max_findings](CommandIo& io) {
    auto sigs = explain::load_signatures(io.host, io.global.kb_dir);
    if (!sigs) {
      io.err << "tfgpu explain: " << sigs.error().message << "\n";
      return exit_code_for(sigs.error());
    }
    auto kb = kb::load_for_command(io.host, io.global.kb_dir);
    if (!kb) {
      io.err << "tfgpu explain: " << kb.error().message << "\n";
      return exit_code_for(kb.error());
    }
    // Packaging rows (conda packages, Windows paths) sharpen the fix steps; without them
    // (a --kb folder without packaging.toml) the steps still name the versions.
    auto packaging = plan::load_packaging(io.host, io.global.kb_dir);
    const plan::Packaging* pk = packaging ? &*packaging : nullptr;
    const kb::KnowledgeBase& kbr = *kb;
    explain::ExplainOptions options;
    options.specific_fix = [&kbr, pk](const Finding& f, const explain::LogFacts& facts) {
      return version_specific_fix(f, facts, kbr, pk);
    };
    explain::ExplainResult result;
    if (path->empty() && stdin_is_terminal()) {
      io.err << "tfgpu explain: give a log file (tfgpu explain train.log) or pipe one in (python train.py 2>&1 | "
                "tfgpu explain)\n";
      return static_cast<int>(kExitUsage);
    }
    if (path->empty() || *path == "-") {
      DecodingStreambuf decoding(std::cin);  // a UTF-8 BOM or UTF-16 (PowerShell's `>`)
      std::istream decoded(&decoding);
      result = explain::explain_log(decoded, *sigs, &*kb, options);
      // std::cin reads through stdio: a read error (stdin a directory, EIO) shows there.
      if (std::ferror(stdin)) {
        io.err << "tfgpu explain: reading standard input failed (is it a directory or a closed device?)\n";
        return static_cast<int>(kExitUsage);
      }
    } else {
      std::error_code ec;
      if (std::filesystem::is_directory(*path, ec)) {
        io.err << "tfgpu explain: " << *path << " is a directory, not a log file\n";
        return static_cast<int>(kExitUsage);
      }
      std::ifstream in(*path, std::ios::binary);
      if (!in) {
        io.err << "tfgpu explain: cannot open " << *path << ": " << std::strerror(errno) << "\n";
        return static_cast<int>(kExitUsage);
      }
      DecodingStreambuf decoding(in);
      std::istream decoded(&decoding);
      result = explain::explain_log(decoded, *sigs, &*kb, options);
      if (in.bad()) {
        io.err << "tfgpu explain: reading " << *path << " failed: " << std::strerror(errno) << "\n";
        return static_cast<int>(kExitUsage);
      }
    }
    switch (io.global.format) {
      case OutputFormat::kJson: io.out << report::render_explain_json(result); break;
      case OutputFormat::kMarkdown: io.out << report::render_explain_markdown(result, local_redactor(io.host)); break;
      case OutputFormat::kText:
        io.out << report::wrap_text(
            report::render_explain_text(result, {.color = io.global.color, .max_findings = *max_findings}), io.global.width);
        break;
    }
    // 1 when a cause was found (whatever its severity), 0 when only harmless messages or
    // nothing was recognised.
    bool cause = !result.findings.empty() && result.findings.front().id != "harmless_warning_only";
    return static_cast<int>(cause ? kExitProblems : kExitOk);
  };
}

}  // namespace tfgpu
