// Rule: TensorRT. TF 2.1 and 2.10-2.17's Linux wheels open libnvinfer / libnvinfer_plugin
// when they start (import, GPU listing) and print a warning when they are missing ("TF-TRT
// Warning: Could not find TensorRT"), which users read as the reason their GPU is not used.
// Only TF-TRT needs them; GPU registration does not. Said here as information, with the files
// the release opens (the KB's [[tensorrt]] rows: read from the wheels and from real runs,
// kb/derivations/tensorrt*.txt) and the loader model's answer for them.
#include <fmt/format.h>

#include "rules/rule_list.h"
#include "rules/rule_support.h"
#include "util/strings.h"

namespace tfgpu::rules {

std::vector<Finding> rule_tensorrt(const Snapshot& s, const kb::KnowledgeBase& kb) {
  std::vector<Finding> out;
  auto platform = wheel_platform(s);
  if (!platform) return out;
  for (const auto& e : tf_envs(s, kb)) {
    if (!e.release || !tf_gpu_build(e, s, kb)) continue;
    const kb::TfLibraries libs = kb.tf_libraries(*e.release, *platform);
    if (libs.optional.empty()) continue;
    auto loads = loads_for(s, kb, e);
    std::vector<std::string> missing;
    for (const auto& l : libs.optional) {
      const loader::TfLoad* load = loads->load_of(l.file);
      if (!load) continue;  // not opened by this build (build_info: is_tensorrt_build False)
      if (load->result.outcome != loader::Outcome::kNotFound && load->result.outcome != loader::Outcome::kFailed)
        continue;
      missing.push_back(l.file);
    }
    if (missing.empty()) continue;
    Finding f;
    f.id = "tensorrt_not_found";
    f.layer = Layer::kRuntime;
    f.severity = Severity::kInfo;
    f.env = e.label;
    f.title = fmt::format("TensorFlow {} will warn \"{}\" ({} not found): harmless, the GPU does not need TensorRT",
                          e.tf->version, libs.optional_warning, join(missing, ", "));
    f.evidence.push_back(fact(fmt::format("{} {} found nowhere the loader searches in TensorFlow's process",
                                          join(missing, " and "), missing.size() == 1 ? "is" : "are"),
                              "loader model"));
    std::vector<std::string> files;
    for (const auto& l : libs.optional) files.push_back(l.file);
    f.evidence.push_back(
        cite(libs.optional_cites.front(), fmt::format("TensorFlow {} opens {} when it starts; only TF-TRT uses them",
                                                      e.release->series().str(), join(files, " and "))));
    // "libnvinfer.so.8.6.1" -> TensorRT 8.6.1; "libnvinfer.so.8" -> TensorRT 8.
    const std::string& first = libs.optional.front().file;
    const size_t so = first.find(".so.");
    const std::string trt = so == std::string::npos ? "" : first.substr(so + 4);
    f.fix.push_back(
        "Nothing to do for the GPU: the warning does not stop TensorFlow from using it (TF_CPP_MIN_LOG_LEVEL=2 "
        "hides TensorFlow's warnings)");
    f.fix.push_back(
        fmt::format("Only to use TF-TRT (tf.experimental.tensorrt): install TensorRT {} so that the loader "
                    "finds {}",
                    trt.empty() ? "of the version TensorFlow was built with" : trt, first));
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace tfgpu::rules
