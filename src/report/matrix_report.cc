#include "report/matrix_report.h"

#include <algorithm>

#include <fmt/format.h>

#include "util/strings.h"

namespace tfgpu {

namespace {

using kb::CcSupport;
using kb::Gpu;
using kb::MatrixResult;

std::string versions_list(const std::vector<Version>& v) {
  std::vector<std::string> s;
  for (const auto& x : v) s.push_back(x.str());
  return join(s, ", ");
}

// "3.5: Tesla K40c, Tesla K40m; 3.7: Tesla K80" (names de-duplicated per CC).
std::string gpus_by_cc(const std::vector<const Gpu*>& gpus) {
  std::vector<std::string> groups;
  size_t i = 0;
  while (i < gpus.size()) {
    kb::ComputeCapability cc = gpus[i]->cc;
    std::vector<std::string> names;
    for (; i < gpus.size() && gpus[i]->cc == cc; ++i)
      if (std::find(names.begin(), names.end(), gpus[i]->name) == names.end()) names.push_back(gpus[i]->name);
    groups.push_back(cc.str() + ": " + join(names, ", "));
  }
  return join(groups, "; ");
}

std::string tflops(const std::optional<double>& v) { return v ? fmt::format("{:g}", *v) : "-"; }

std::string driver_line(const kb::DriverRequirement& d) {
  return fmt::format(">= {} ({})", kb::driver_version_str(d.min_driver), d.basis);
}

std::string filters_text(const kb::MatrixQuery& q) {
  std::vector<std::string> parts;
  if (q.tf) parts.push_back("--tf " + *q.tf);
  if (q.cuda) parts.push_back("--cuda " + *q.cuda);
  if (q.cudnn) parts.push_back("--cudnn " + *q.cudnn);
  if (q.python) parts.push_back("--python " + *q.python);
  if (q.driver) parts.push_back("--driver " + *q.driver);
  if (q.gpu) parts.push_back("--gpu \"" + *q.gpu + "\"");
  parts.push_back(std::string("--os ") + platform_name(q.platform));
  return join(parts, " ");
}

void render_tf_detail(std::string& o, const MatrixResult& r) {
  const auto& d = *r.tf;
  const kb::TfRelease& tf = *d.release;
  const auto p = r.query.platform;
  o += fmt::format("TensorFlow {} on {}\n", tf.version.str(), platform_name(p));
  if (!tf.has_gpu_build(p)) {
    o += "  GPU build     NO: the official wheel for this OS is CPU-only\n";
    if (d.no_gpu_note) {
      o += "  " + d.no_gpu_note->message + "\n";
      o += "  Alternatives:\n";
      for (const auto& a : d.no_gpu_note->alternatives) o += "    - " + a + "\n";
    }
  } else {
    o += "  GPU build     yes\n";
  }
  const auto* py = tf.python_on(p);
  o += fmt::format("  Python        {}{}\n", py ? kb::compact_versions(*py) : "no wheels listed for this OS",
                   py && !tf.has_gpu_build(p) ? " (CPU-only wheels)" : "");
  o += fmt::format("  CUDA          {}{}\n", tf.cuda.str(), tf.has_gpu_build(p) ? "" : " (Linux build; not used here)");
  o += fmt::format("  cuDNN         {}{}\n", tf.cudnn.str(), tf.has_gpu_build(p) ? "" : " (Linux build; not used here)");
  if (!r.rows.empty() && r.rows.front().release == &tf) {
    const auto& row = r.rows.front();
    if (row.driver_compat) o += "  Driver        " + driver_line(*row.driver_compat) + "\n";
    if (row.driver_exact && (!row.driver_compat || row.driver_exact->min_driver != row.driver_compat->min_driver))
      o += fmt::format("                >= {} for full CUDA {} features ({})\n", kb::driver_version_str(row.driver_exact->min_driver),
                       tf.cuda.str(), row.driver_exact->basis);
    if (row.driver_wsl2)
      o += fmt::format("  WSL2          Windows driver >= {} ({})\n", kb::driver_version_str(row.driver_wsl2->min_driver), row.driver_wsl2->basis);
  }
  if (!d.packages.empty()) {
    bool first = true;
    for (const auto* pkg : d.packages) {
      o += fmt::format("  {}{} ({}): {}\n", first ? "Packages      " : "              ", pkg->name, pkg->role, pkg->note);
      first = false;
    }
  }
  if (d.and_cuda) {
    o += fmt::format("  [and-cuda]    {}{}\n", join(d.and_cuda->wheels, " "), d.and_cuda->prov.verified ? "" : " (unverified)");
  }
  if (d.libraries.gpu_build) {
    o += fmt::format("  Libraries TensorFlow loads (* = {}{}):\n",
                     d.libraries.linked ? "linked: a missing one fails `import tensorflow`"
                                        : "must all load, or TensorFlow skips the GPU",
                     d.libraries.must_load_verified ? "" : "; set unverified");
    for (const auto& l : d.libraries.libraries)
      o += fmt::format("    {} {:<9} {}\n", l.must_load ? "*" : " ", l.component, l.file);
    for (const auto& l : d.libraries.optional)
      o += fmt::format("      {:<9} {} (optional: TF-TRT only; missing, TF warns \"{}\")\n", l.component, l.file,
                       d.libraries.optional_warning);
    for (const auto& n : d.libraries.notes) o += "    note: " + n + "\n";
  }
  if (!tf.avx) {
    o += fmt::format(
        "  CPU           no AVX needed{}\n",
        d.first_avx ? fmt::format(" (the official wheels use AVX from {})", d.first_avx->series().str()) : "");
  }
  if (p == Platform::kWindows && tf.has_gpu_build(p)) {
    using M = kb::TfRelease::MissingDll;
    switch (tf.windows_missing_cuda_dll) {
      case M::kDllLoadFailed:
        o += "  Missing DLL   a CUDA / cuDNN DLL not on PATH fails `import tensorflow` with a bare 'DLL load failed'\n";
        break;
      case M::kNamedAtImport:
        o += "  Missing DLL   `import tensorflow` names a missing nvcuda / cudart / cuDNN DLL (\"Could not find "
             "...\")\n";
        break;
      case M::kLoggedAtRunTime:
        o += "  Missing DLL   CUDA DLLs are opened after import; a missing one is logged\n";
        break;
      case M::kUnknown:
        break;
    }
  }
  if (tf.has_gpu_build(p)) {
    if (tf.compute_capabilities.empty()) {
      o += "  Compiled for  unknown (no build_info in the knowledge base)\n";
    } else {
      o += fmt::format("  Compiled for  {}{}\n", join(tf.compute_capabilities, " "),
                       tf.cc_prov.verified ? "" : " (unverified: " + tf.cc_note + ")");
      o += "  GPUs in the knowledge base:\n";
      if (!d.gpus_native.empty()) o += "    native kernels: " + gpus_by_cc(d.gpus_native) + "\n";
      if (!d.gpus_ptx_jit.empty())
        o += "    PTX JIT (works, slow first start): " + gpus_by_cc(d.gpus_ptx_jit) + "\n";
      if (!d.gpus_ignored.empty()) o += "    ignored by TensorFlow: " + gpus_by_cc(d.gpus_ignored) + "\n";
    }
  }
  for (const auto& n : tf.notes) o += "  note: " + n + "\n";
}

void render_cuda_detail(std::string& o, const MatrixResult& r) {
  const auto& d = *r.cuda;
  if (!d.release) {
    o += fmt::format("CUDA {}.x: TensorFlow releases built with it or loading its libraries are listed below\n", d.family);
    return;
  }
  const auto& c = *d.release;
  o += fmt::format("CUDA {} (GA {})\n", c.version.str(), c.ga.str());
  if (d.driver_compat) o += fmt::format("  Driver        {} on {}\n", driver_line(*d.driver_compat), platform_name(r.query.platform));
  if (d.driver_exact && (!d.driver_compat || d.driver_exact->min_driver != d.driver_compat->min_driver))
    o += fmt::format("                >= {} for full features ({})\n", kb::driver_version_str(d.driver_exact->min_driver),
                     d.driver_exact->basis);
  o += fmt::format("  Builds for    compute capability {} to {}", c.sass_min.str(), c.sass_max.str());
  if (!c.dropped.empty()) {
    std::vector<std::string> dropped;
    for (const auto& x : c.dropped) dropped.push_back(x.str());
    o += "; removed here: " + join(dropped, ", ");
  }
  o += "\n";
  if (!d.libraries.empty()) {
    o += "  Libraries:\n";
    for (const auto& l : d.libraries) o += fmt::format("    {:<9} {}\n", l.component, l.file);
  }
  for (const auto& n : c.notes) o += "  note: " + n + "\n";
}

void render_cudnn_detail(std::string& o, const MatrixResult& r) {
  const auto& d = *r.cudnn;
  const auto& c = *d.release;
  std::vector<std::string> cuda;
  for (const auto& x : c.cuda) cuda.push_back(x.str());
  o += fmt::format("cuDNN {} (row {}{})\n", c.version.truncated(2).str(), c.version.str(), c.prov.verified ? "" : ", unverified");
  o += fmt::format("  CUDA          {}\n", join(cuda, ", "));
  if (c.min_cc) o += fmt::format("  GPUs          compute capability {} and up\n", c.min_cc->str());
  if (d.major) {
    o += fmt::format("  Version macro {}: CUDNN_VERSION = major * {} + minor * 100 + patch\n", d.major->header,
                     d.major->version_multiplier);
    auto it = d.major->libraries.find(r.query.platform);
    if (it != d.major->libraries.end() && !it->second.empty())
      o += fmt::format("  Libraries     {}\n", join(it->second, " "));
  }
  if (r.query.platform == Platform::kWindows) {
    const char* z = c.windows_zlibwapi == kb::Tristate::kYes ? "yes" : c.windows_zlibwapi == kb::Tristate::kNo ? "no" : "unknown";
    o += fmt::format("  zlibwapi.dll  {}\n", z);
  }
  if (!c.note.empty()) o += "  note: " + c.note + "\n";
}

void render_driver_detail(std::string& o, const MatrixResult& r) {
  const auto& d = *r.driver;
  o += fmt::format("Driver {} on {}\n", kb::driver_version_str(d.driver), platform_name(d.platform));
  o += fmt::format("  Newest CUDA, full features (bundled driver <= yours): {}\n",
                   d.newest_cuda_toolkit_exact ? d.newest_cuda_toolkit_exact->str() : "none");
  o += fmt::format("  Newest CUDA it runs (minor-version compatibility):    {}\n",
                   d.newest_cuda_minor_compat ? d.newest_cuda_minor_compat->str() : "none");
}

void render_gpu_detail(std::string& o, const MatrixResult& r) {
  const auto& d = *r.gpu;
  std::vector<std::string> ids;
  for (const Gpu* g : d.gpus) ids.push_back(g->pci_id);
  o += fmt::format("{} ({}): compute capability {}{}\n", d.gpus.front()->name, join(ids, ", "), d.cc.str(),
                   d.architecture.empty() ? "" : " (" + d.architecture + ")");
  const Gpu& g = *d.gpus.front();
  if (g.memory_gb) o += fmt::format("  Memory        {:g} GB\n", *g.memory_gb);
  if (g.tensor_cores && !*g.tensor_cores) o += "  Tensor cores  none (" + g.note + ")\n";
  if (g.peak) {
    const auto& pk = *g.peak;
    o += fmt::format("  Peak (dense)  FP32 {} / TF32 {} / FP16 {} / BF16 {} TFLOPS, {} GB/s{}\n", tflops(pk.fp32_tflops),
                     tflops(pk.tf32_tflops), tflops(pk.fp16_tflops), tflops(pk.bf16_tflops), tflops(pk.bandwidth_gbs),
                     pk.prov.verified ? "" : " (unverified)");
  }
  o += fmt::format("  TensorFlow with native kernels:  {}\n", d.tf_native.empty() ? "none" : versions_list(d.tf_native));
  o += fmt::format("  TensorFlow via PTX JIT (slow first start): {}\n", d.tf_ptx_jit.empty() ? "none" : versions_list(d.tf_ptx_jit));
  o += fmt::format("  TensorFlow that ignore it:       {}\n", d.tf_ignored.empty() ? "none" : versions_list(d.tf_ignored));
  if (!d.tf_unknown.empty())
    o += fmt::format("  Compiled list not known for:     {}\n", versions_list(d.tf_unknown));
  if (d.newest_cuda_targeting)
    o += fmt::format("  Newest CUDA toolkit that still builds for it: {}\n", d.newest_cuda_targeting->str());
}

void render_table(std::string& o, const MatrixResult& r) {
  const auto p = r.query.platform;
  bool any_why = std::any_of(r.rows.begin(), r.rows.end(), [](const auto& row) { return !row.why.empty(); });
  o += fmt::format("{:<8} {:<18} {:<6} {:<6} {:<11} {}\n", "TF", "Python", "CUDA", "cuDNN",
                   std::string("GPU/") + platform_name(p), "min driver");
  for (const auto& row : r.rows) {
    const auto& tf = *row.release;
    std::string gpu = row.gpu_build ? "yes" : "no (CPU)";
    if (row.gpu_support) gpu = std::string(kb::to_string(row.gpu_support->support));
    o += fmt::format("{:<8} {:<18} {:<6} {:<6} {:<11} {}{}\n", tf.version.str(),
                     row.python.empty() ? "-" : kb::compact_versions(row.python), tf.cuda.str(), tf.cudnn.str(), gpu,
                     row.driver_compat ? kb::driver_version_str(row.driver_compat->min_driver) : "-",
                     tf.prov.verified ? "" : "  (unverified)");
    if (any_why)
      for (const auto& w : row.why) o += "         - " + w + "\n";
  }
}

}  // namespace

std::string render_matrix_text(const MatrixResult& r) {
  std::string o;
  o += fmt::format("tfgpu matrix {}\n\n", filters_text(r.query));
  if (r.tf) {
    render_tf_detail(o, r);
    o += "\n";
  }
  if (r.cuda) {
    render_cuda_detail(o, r);
    o += "\n";
  }
  if (r.cudnn) {
    render_cudnn_detail(o, r);
    o += "\n";
  }
  if (r.driver) {
    render_driver_detail(o, r);
    o += "\n";
  }
  if (r.gpu) {
    render_gpu_detail(o, r);
    o += "\n";
  }
  bool single_tf = r.tf && r.rows.size() <= 1 && !r.query.cuda && !r.query.cudnn && !r.query.driver &&
                   !r.query.python && !r.query.gpu;
  if (!r.rows.empty() && !single_tf) {
    o += fmt::format("TensorFlow releases ({}):\n", r.rows.size());
    render_table(o, r);
    o += "\n";
  }
  for (const auto& n : r.notes) o += "note: " + n + "\n";
  if (!r.notes.empty()) o += "\n";
  std::vector<std::string> sources;
  std::vector<std::string> unverified;
  for (const auto& c : r.citations) {
    for (const auto& s : c.sources)
      if (std::find(sources.begin(), sources.end(), s) == sources.end()) sources.push_back(s);
    if (!c.verified) unverified.push_back(c.row);
  }
  o += "Sources:\n";
  for (size_t i = 0; i < sources.size(); ++i) o += fmt::format("  [{}] {}\n", i + 1, sources[i]);
  if (!unverified.empty()) o += "Unverified (inferred or secondary): " + join(unverified, "; ") + "\n";
  return o;
}

namespace {

nlohmann::json cite_json(const kb::Citation& c) {
  return {{"row", c.row}, {"sources", c.sources}, {"verified", c.verified}};
}

nlohmann::json versions_json(const std::vector<Version>& v) {
  auto a = nlohmann::json::array();
  for (const auto& x : v) a.push_back(x.str());
  return a;
}

nlohmann::json driver_json(const std::optional<kb::DriverRequirement>& d) {
  if (!d) return nullptr;
  return {{"min_driver", kb::driver_version_str(d->min_driver)},
          {"policy", d->policy == kb::DriverPolicy::kToolkitExact ? "toolkit" : "minor_version_compat"},
          {"basis", d->basis}};
}

nlohmann::json gpu_brief(const Gpu* g) {
  return {{"pci_id", g->pci_id}, {"name", g->name}, {"compute_capability", g->cc.str()}};
}

nlohmann::json gpus_json(const std::vector<const Gpu*>& gpus) {
  auto a = nlohmann::json::array();
  for (const Gpu* g : gpus) a.push_back(gpu_brief(g));
  return a;
}

}  // namespace

nlohmann::json matrix_to_json(const MatrixResult& r) {
  using nlohmann::json;
  const auto p = r.query.platform;
  json j;
  j["schema_version"] = kMatrixJsonSchemaVersion;
  json q = {{"os", platform_name(p)}};
  auto opt = [](const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); };
  q["tf"] = opt(r.query.tf);
  q["cuda"] = opt(r.query.cuda);
  q["cudnn"] = opt(r.query.cudnn);
  q["python"] = opt(r.query.python);
  q["driver"] = opt(r.query.driver);
  q["gpu"] = opt(r.query.gpu);
  j["query"] = q;

  json rows = json::array();
  for (const auto& row : r.rows) {
    const auto& tf = *row.release;
    json x = {{"version", tf.version.str()},
              {"series", tf.series().str()},
              {"gpu_build", row.gpu_build},
              {"python", versions_json(row.python)},
              {"cuda", tf.cuda.str()},
              {"cudnn", tf.cudnn.str()},
              {"min_driver", driver_json(row.driver_compat)},
              {"min_driver_full_features", driver_json(row.driver_exact)},
              {"min_windows_driver_wsl2", driver_json(row.driver_wsl2)},
              {"gpu_support", row.gpu_support ? json(std::string(kb::to_string(row.gpu_support->support))) : json(nullptr)},
              {"gpu_support_detail", row.gpu_support ? json(row.gpu_support->detail) : json(nullptr)},
              {"why", row.why},
              {"verified", tf.prov.verified}};
    rows.push_back(std::move(x));
  }
  j["tensorflow"] = rows;

  if (r.tf) {
    const auto& d = *r.tf;
    const auto& tf = *d.release;
    json t = {{"version", tf.version.str()},
              {"lookup_note", d.lookup_note.empty() ? json(nullptr) : json(d.lookup_note)},
              {"gpu_build", tf.has_gpu_build(p)},
              {"python", tf.python_on(p) ? versions_json(*tf.python_on(p)) : json(nullptr)},
              {"cuda", tf.cuda.str()},
              {"cudnn", tf.cudnn.str()},
              {"notes", tf.notes}};
    json libs = json::array();
    for (const auto& l : d.libraries.libraries)
      libs.push_back({{"component", l.component}, {"file", l.file}, {"must_load", l.must_load}, {"platform_init", l.platform_init}});
    t["libraries"] = libs;
    json optional = json::array();
    for (const auto& l : d.libraries.optional) optional.push_back({{"component", l.component}, {"file", l.file}});
    t["optional_libraries"] = optional;
    t["optional_libraries_warning"] = d.libraries.optional_warning;
    t["libraries_must_load_verified"] = d.libraries.must_load_verified;
    t["libraries_linked"] = d.libraries.linked;
    t["library_notes"] = d.libraries.notes;
    json pk = json::array();
    for (const auto* pkg : d.packages)
      pk.push_back({{"name", pkg->name}, {"role", pkg->role}, {"note", pkg->note}, {"verified", pkg->prov.verified}});
    t["packages"] = pk;
    t["and_cuda"] = d.and_cuda ? json{{"wheels", d.and_cuda->wheels}, {"verified", d.and_cuda->prov.verified}} : json(nullptr);
    t["no_gpu"] = d.no_gpu_note
                      ? json{{"message", d.no_gpu_note->message}, {"alternatives", d.no_gpu_note->alternatives}}
                      : json(nullptr);
    if (tf.compute_capabilities.empty()) {
      t["compute_capabilities"] = nullptr;
    } else {
      t["compute_capabilities"] = {{"list", tf.compute_capabilities}, {"verified", tf.cc_prov.verified}};
    }
    t["gpus"] = {{"native", gpus_json(d.gpus_native)},
                 {"ptx_jit", gpus_json(d.gpus_ptx_jit)},
                 {"ignored", gpus_json(d.gpus_ignored)}};
    j["tf"] = t;
  } else {
    j["tf"] = nullptr;
  }

  if (r.cuda) {
    const auto& d = *r.cuda;
    json c = {{"family", d.family}};
    if (d.release) {
      c["version"] = d.release->version.str();
      c["ga"] = d.release->ga.str();
      c["min_driver"] = driver_json(d.driver_compat);
      c["min_driver_full_features"] = driver_json(d.driver_exact);
      c["sass_min"] = d.release->sass_min.str();
      c["sass_max"] = d.release->sass_max.str();
      json libs = json::array();
      for (const auto& l : d.libraries) libs.push_back({{"component", l.component}, {"file", l.file}});
      c["libraries"] = libs;
    } else {
      c["version"] = nullptr;
    }
    j["cuda"] = c;
  } else {
    j["cuda"] = nullptr;
  }

  if (r.cudnn) {
    const auto& c = *r.cudnn->release;
    json cuda = json::array();
    for (const auto& x : c.cuda) cuda.push_back(x.str());
    json d = {{"version", c.version.str()}, {"cuda", cuda}, {"min_cc", c.min_cc ? json(c.min_cc->str()) : json(nullptr)},
              {"windows_zlibwapi", c.windows_zlibwapi == kb::Tristate::kYes  ? "yes"
                                   : c.windows_zlibwapi == kb::Tristate::kNo ? "no"
                                                                             : "unknown"},
              {"verified", c.prov.verified}};
    if (r.cudnn->major) {
      d["header"] = r.cudnn->major->header;
      d["version_multiplier"] = r.cudnn->major->version_multiplier;
      auto it = r.cudnn->major->libraries.find(p);
      d["libraries"] = it != r.cudnn->major->libraries.end() ? json(it->second) : json::array();
    }
    j["cudnn"] = d;
  } else {
    j["cudnn"] = nullptr;
  }

  if (r.driver) {
    const auto& d = *r.driver;
    j["driver"] = {{"version", kb::driver_version_str(d.driver)},
                   {"newest_cuda_full_features", d.newest_cuda_toolkit_exact ? json(d.newest_cuda_toolkit_exact->str()) : json(nullptr)},
                   {"newest_cuda_minor_version_compat", d.newest_cuda_minor_compat ? json(d.newest_cuda_minor_compat->str()) : json(nullptr)}};
  } else {
    j["driver"] = nullptr;
  }

  if (r.gpu) {
    const auto& d = *r.gpu;
    const Gpu& g = *d.gpus.front();
    json peak = nullptr;
    if (g.peak) {
      auto num = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
      peak = {{"fp32_tflops", num(g.peak->fp32_tflops)},   {"tf32_tflops", num(g.peak->tf32_tflops)},
              {"fp16_tflops", num(g.peak->fp16_tflops)},   {"bf16_tflops", num(g.peak->bf16_tflops)},
              {"fp8_tflops", num(g.peak->fp8_tflops)},     {"bandwidth_gbs", num(g.peak->bandwidth_gbs)},
              {"verified", g.peak->prov.verified}};
    }
    j["gpu"] = {{"matches", gpus_json(d.gpus)},
                {"compute_capability", d.cc.str()},
                {"architecture", d.architecture.empty() ? json(nullptr) : json(d.architecture)},
                {"memory_gb", g.memory_gb ? json(*g.memory_gb) : json(nullptr)},
                {"peak", peak},
                {"tf_native", versions_json(d.tf_native)},
                {"tf_ptx_jit", versions_json(d.tf_ptx_jit)},
                {"tf_ignored", versions_json(d.tf_ignored)},
                {"tf_unknown", versions_json(d.tf_unknown)},
                {"newest_cuda_targeting", d.newest_cuda_targeting ? json(d.newest_cuda_targeting->str()) : json(nullptr)}};
  } else {
    j["gpu"] = nullptr;
  }

  j["notes"] = r.notes;
  json cites = json::array();
  for (const auto& c : r.citations) cites.push_back(cite_json(c));
  j["citations"] = cites;
  return j;
}

}  // namespace tfgpu
