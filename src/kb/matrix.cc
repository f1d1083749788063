// Answers `tfgpu matrix` queries. Each filter keeps the TF releases it accepts and
// says why in one line; the answer is their intersection. Facts come only from the KB.
#include "kb/matrix.h"

#include <algorithm>

#include <fmt/format.h>

#include "util/strings.h"

namespace tfgpu::kb {

namespace {

void add_cites(std::vector<Citation>& all, const std::vector<Citation>& more) {
  for (const auto& c : more) {
    bool seen = std::any_of(all.begin(), all.end(), [&](const Citation& a) { return a.row == c.row; });
    if (!seen) all.push_back(c);
  }
}

Result<Version> parse_value(std::string_view what, std::string_view text, std::string_view example) {
  auto v = Version::parse(text);
  if (!v) return fail(Error::input(fmt::format("malformed {} '{}' (expected e.g. {})", what, text, example)));
  return v;
}

// Whether every toolkit library TF names on the platform is shipped, under the same
// file name, by the CUDA release (that is what the loader needs; cuDNN and the
// driver are separate installs).
bool loads_with(const KnowledgeBase& kb, const TfRelease& tf, const CudaRelease& cuda, Platform p) {
  auto libs = kb.tf_libraries(tf, p);
  if (!libs.gpu_build || libs.libraries.empty()) return false;
  auto it = cuda.libraries.find(p);
  if (it == cuda.libraries.end()) return false;
  for (const auto& l : libs.libraries) {
    if (l.platform_init || l.component == "cudnn") continue;  // driver-side libraries, not the toolkit's
    auto file = cuda.library(p, l.component);
    if (!file || *file != l.file) return false;
  }
  return true;
}

}  // namespace

std::string compact_versions(const std::vector<Version>& versions) {
  std::vector<std::string> parts;
  size_t i = 0;
  while (i < versions.size()) {
    size_t j = i;
    while (j + 1 < versions.size() && versions[j + 1].major() == versions[j].major() &&
           versions[j + 1].minor() == versions[j].minor() + 1)
      ++j;
    if (j == i) parts.push_back(versions[i].str());
    else parts.push_back(versions[i].str() + "-" + versions[j].str());
    i = j + 1;
  }
  return join(parts, ", ");
}

Result<MatrixResult> run_matrix(const KnowledgeBase& kb, const MatrixQuery& q) {
  MatrixResult out;
  out.query = q;
  const Platform p = q.platform;

  // Candidate rows: all releases, or the one asked for.
  std::vector<const TfRelease*> candidates;
  if (q.tf) {
    auto found = kb.find_tf(*q.tf);
    if (!found) return fail(found.error());
    candidates.push_back(found->release);
    MatrixTfDetail d;
    d.release = found->release;
    d.lookup_note = found->note;
    add_cites(out.citations, found->cites);
    out.tf = std::move(d);
  } else {
    for (const auto& r : kb.tf_releases()) candidates.push_back(&r);
  }

  std::vector<MatrixTfRow> rows;
  for (const TfRelease* r : candidates) {
    MatrixTfRow row;
    row.release = r;
    row.gpu_build = r->has_gpu_build(p);
    if (const auto* py = r->python_on(p)) row.python = *py;
    if (p != Platform::kMacos && row.gpu_build) {
      if (auto d = kb.min_driver(r->cuda, p, DriverPolicy::kMinorVersionCompat)) row.driver_compat = *d;
      if (auto d = kb.min_driver(r->cuda, p, DriverPolicy::kToolkitExact)) row.driver_exact = *d;
      if (const Wsl2Driver* w = p == Platform::kLinux ? kb.wsl2_driver(r->cuda) : nullptr)
        row.driver_wsl2 = DriverRequirement{r->cuda, Platform::kWindows, DriverPolicy::kMinorVersionCompat, w->driver, w->note, {kb.cite(*w)}};
    }
    rows.push_back(std::move(row));
  }
  // Keeps the rows `keep` accepts (it may append to row.why).
  auto filter = [&](auto&& keep) {
    std::vector<MatrixTfRow> kept;
    for (auto& row : rows)
      if (keep(row)) kept.push_back(std::move(row));
    rows = std::move(kept);
  };

  if (q.python) {
    auto v = parse_value("Python version", *q.python, "3.12");
    if (!v) return fail(v.error());
    Version want = v->truncated(2);
    std::vector<Version> known;
    for (const auto& r : kb.tf_releases())
      for (const auto& [plat, list] : r.python)
        for (const auto& pv : list)
          if (std::find(known.begin(), known.end(), pv) == known.end()) known.push_back(pv);
    if (std::find(known.begin(), known.end(), want) == known.end())
      return fail(Error::not_found(fmt::format("no TensorFlow release supports Python {} (did you mean {}?)", want.str(),
                                               join(nearest_versions(want, known), ", "))));
    filter([&](MatrixTfRow& row) {
      bool ok = std::find(row.python.begin(), row.python.end(), want) != row.python.end();
      if (ok) row.why.push_back(fmt::format("has wheels for Python {} on {}", want.str(), platform_name(p)));
      return ok;
    });
  }

  if (q.cuda) {
    auto v = parse_value("CUDA version", *q.cuda, "11.8");
    if (!v) return fail(v.error());
    MatrixCudaDetail d;
    std::vector<const CudaRelease*> releases;
    if (v->size() >= 2) {
      auto c = kb.find_cuda(*q.cuda);
      if (!c) return fail(c.error());
      releases.push_back(*c);
      d.release = *c;
      d.family = (*c)->version.major();
      if (p != Platform::kMacos) {
        if (auto m = kb.min_driver((*c)->version, p, DriverPolicy::kToolkitExact)) d.driver_exact = *m;
        if (auto m = kb.min_driver((*c)->version, p, DriverPolicy::kMinorVersionCompat)) d.driver_compat = *m;
      }
      if (auto it = (*c)->libraries.find(p); it != (*c)->libraries.end()) d.libraries = it->second;
      add_cites(out.citations, {kb.cite(**c), kb.cite_cc(**c)});
      if (!d.libraries.empty()) add_cites(out.citations, {kb.cite_libraries(**c)});
      if (d.driver_compat) add_cites(out.citations, d.driver_compat->cites);
    } else {
      for (const auto& c : kb.cuda_releases())
        if (c.version.major() == v->major()) releases.push_back(&c);
      if (releases.empty()) {
        std::vector<Version> known;
        for (const auto& c : kb.cuda_releases()) known.push_back(Version({c.version.major()}));
        return fail(Error::not_found(fmt::format("unknown CUDA major version {} (did you mean {}?)", v->str(),
                                                 join(nearest_versions(*v, known), ", "))));
      }
      d.family = v->major();
      if (const CudaFamily* f = kb.cuda_family(v->major())) add_cites(out.citations, {kb.cite(*f)});
    }
    out.cuda = std::move(d);
    filter([&](MatrixTfRow& row) {
      if (!row.gpu_build) return false;
      const TfRelease& tf = *row.release;
      if (stated_version_names(tf.cuda, *v)) {
        row.why.push_back(fmt::format("built with CUDA {}", tf.cuda.str()));
        return true;
      }
      for (const CudaRelease* c : releases) {
        if (loads_with(kb, tf, *c, p)) {
          row.why.push_back(fmt::format("built with CUDA {}; loads with CUDA {} (same library file names)",
                                        tf.cuda.str(), c->version.str()));
          return true;
        }
      }
      return false;
    });
  }

  if (q.cudnn) {
    auto v = parse_value("cuDNN version", *q.cudnn, "8.6");
    if (!v) return fail(v.error());
    auto c = kb.find_cudnn(*q.cudnn);
    if (!c) return fail(c.error());
    MatrixCudnnDetail d;
    d.release = *c;
    d.major = kb.cudnn_major((*c)->version.major());
    add_cites(out.citations, {kb.cite(**c)});
    if (d.major) add_cites(out.citations, {kb.cite(*d.major)});
    out.cudnn = d;
    Version want = v->truncated(2);
    filter([&](MatrixTfRow& row) {
      if (!row.gpu_build) return false;
      const TfRelease& tf = *row.release;
      // cuda_dnn.cc: the loaded cuDNN must have the compiled-in major version and an
      // equal or higher minor version.
      if (tf.cudnn.major() != want.major() || tf.cudnn.minor() > want.minor()) return false;
      if (!(*c)->supports_cuda(tf.cuda)) return false;
      if (tf.cudnn.truncated(2) == want) row.why.push_back(fmt::format("built with cuDNN {}", tf.cudnn.str()));
      else
        row.why.push_back(fmt::format("built with cuDNN {}; accepts {} (same major, newer minor, supports CUDA {})",
                                      tf.cudnn.str(), want.str(), tf.cuda.str()));
      return true;
    });
  }

  if (q.driver) {
    auto v = parse_value("driver version", *q.driver, p == Platform::kWindows ? "522.06" : "535.104.05");
    if (!v) return fail(v.error());
    if (p == Platform::kMacos) return fail(Error::input("--driver needs --os linux or windows (no CUDA driver on macOS)"));
    out.driver = kb.newest_cuda_for_driver(*v, p);
    add_cites(out.citations, out.driver->cites);
    filter([&](MatrixTfRow& row) {
      if (!row.gpu_build || !row.driver_compat) return false;
      if (row.driver_compat->min_driver > *v) return false;
      std::string line = fmt::format("driver {} >= {} ({})", driver_version_str(*v), driver_version_str(row.driver_compat->min_driver),
                                     row.driver_compat->basis);
      if (row.driver_exact && row.driver_exact->min_driver > *v)
        line += fmt::format("; full CUDA {} features need {}", row.release->cuda.str(),
                             driver_version_str(row.driver_exact->min_driver));
      row.why.push_back(line);
      add_cites(out.citations, row.driver_compat->cites);
      return true;
    });
    // WSL2 runs the Linux wheels on the Windows driver, whose number must satisfy the
    // Windows column of NVIDIA's tables (nvidia.md section 6).
    if (p == Platform::kWindows) {
      const TfRelease* newest = nullptr;
      for (const auto& r : kb.tf_releases()) {
        if (!r.has_gpu_build(Platform::kLinux)) continue;
        auto need = kb.min_driver(r.cuda, Platform::kWindows, DriverPolicy::kMinorVersionCompat);
        if (!need) continue;
        Version min = need->min_driver;
        if (const Wsl2Driver* w = kb.wsl2_driver(r.cuda); w && min < w->driver) min = w->driver;  // the same number plan uses
        if (min <= *v) newest = &r;
      }
      if (newest && !newest->has_gpu_build(Platform::kWindows))
        out.notes.push_back(fmt::format("in WSL2 this driver also runs the Linux wheels up to TensorFlow {} (CUDA {})",
                                        newest->version.str(), newest->cuda.str()));
    }
    if (!out.driver->newest_cuda_minor_compat)
      out.notes.push_back(fmt::format("driver {} is older than every CUDA toolkit in the knowledge base needs",
                                     driver_version_str(*v)));
  }

  if (q.gpu) {
    auto found = kb.find_gpus(*q.gpu);
    if (!found) return fail(found.error());
    std::vector<const Gpu*> gpus = *found;
    ComputeCapability cc = gpus.front()->cc;
    for (const Gpu* g : gpus) {
      if (g->cc != cc) {
        // One example per compute capability, so the message shows the difference.
        std::vector<std::string> names;
        std::vector<ComputeCapability> shown;
        for (const Gpu* h : gpus) {
          if (std::find(shown.begin(), shown.end(), h->cc) != shown.end()) continue;
          shown.push_back(h->cc);
          names.push_back(fmt::format("{} ({})", h->name, h->cc.str()));
          if (names.size() == 3) break;
        }
        return fail(Error::input(fmt::format("GPU name '{}' matches GPUs with different compute capabilities ({}, ...): be more specific",
                                             *q.gpu, join(names, ", "))));
      }
    }
    MatrixGpuDetail d;
    d.gpus = gpus;
    d.cc = cc;
    d.architecture = kb.architecture_name(cc);
    for (const Gpu* g : gpus) add_cites(out.citations, {kb.cite(*g)});
    for (const auto& c : kb.cuda_releases())
      if (c.sass_min <= cc) d.newest_cuda_targeting = c.version;
    filter([&](MatrixTfRow& row) {
      if (!row.gpu_build) return false;
      row.gpu_support = kb.tf_cc_support(*row.release, cc);
      add_cites(out.citations, row.gpu_support->cites);
      const Version& v = row.release->version;
      switch (row.gpu_support->support) {
        case CcSupport::kNative: d.tf_native.push_back(v); break;
        case CcSupport::kPtxJit: d.tf_ptx_jit.push_back(v); break;
        case CcSupport::kIgnored: d.tf_ignored.push_back(v); break;
        case CcSupport::kUnknown: d.tf_unknown.push_back(v); break;
      }
      // No `why` line: the GPU column and the grouped summary say it (JSON: gpu_support_detail).
      return true;
    });
    for (auto* list : {&d.tf_native, &d.tf_ptx_jit, &d.tf_ignored, &d.tf_unknown})
      std::sort(list->begin(), list->end(), std::greater<>());
    out.gpu = std::move(d);
  }

  // The --tf detail: libraries, packages, and the GPUs of the KB by support class.
  if (out.tf) {
    MatrixTfDetail& d = *out.tf;
    const TfRelease& tf = *d.release;
    d.libraries = kb.tf_libraries(tf, p);
    add_cites(out.citations, d.libraries.cites);
    add_cites(out.citations, d.libraries.optional_cites);
    d.packages = kb.packages_for(tf, p);
    if (!tf.avx) d.first_avx = kb.first_avx_release();
    if (!tf.import_prov.source.empty()) add_cites(out.citations, {kb.cite_import(tf)});  // the AVX / DLL lines
    for (const TfPackage* pkg : d.packages) add_cites(out.citations, {kb.cite(*pkg)});
    if (p == Platform::kLinux) {
      d.and_cuda = kb.and_cuda_for(tf);
      if (d.and_cuda) add_cites(out.citations, {kb.cite(*d.and_cuda)});
    }
    if (!tf.has_gpu_build(p)) {
      d.no_gpu_note = kb.platform_note(tf, p);
      if (d.no_gpu_note) add_cites(out.citations, {kb.cite(*d.no_gpu_note)});
    } else if (!tf.compute_capabilities.empty()) {
      add_cites(out.citations, {kb.cite_cc(tf)});
      for (const auto& g : kb.gpus()) {
        switch (kb.tf_cc_support(tf, g.cc).support) {
          case CcSupport::kNative: d.gpus_native.push_back(&g); break;
          case CcSupport::kPtxJit: d.gpus_ptx_jit.push_back(&g); break;
          case CcSupport::kIgnored: d.gpus_ignored.push_back(&g); break;
          case CcSupport::kUnknown: break;
        }
      }
      auto by_cc = [](const Gpu* a, const Gpu* b) {
        return std::tie(a->cc, a->name) < std::tie(b->cc, b->name);
      };
      for (auto* list : {&d.gpus_native, &d.gpus_ptx_jit, &d.gpus_ignored}) std::stable_sort(list->begin(), list->end(), by_cc);
    }
    if (!d.lookup_note.empty()) out.notes.push_back(d.lookup_note);
    if (rows.empty()) out.notes.push_back(fmt::format("TensorFlow {} does not match the other filters", tf.version.str()));
  }

  for (const auto& row : rows) {
    add_cites(out.citations, {kb.cite(*row.release)});
    if (row.driver_compat) add_cites(out.citations, row.driver_compat->cites);
  }
  if (rows.empty() && !out.tf) out.notes.push_back(fmt::format("no TensorFlow release matches these filters on {}", platform_name(p)));
  std::reverse(rows.begin(), rows.end());  // newest first
  out.rows = std::move(rows);
  return out;
}

}  // namespace tfgpu::kb
