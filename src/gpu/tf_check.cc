#include "gpu/tf_check.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/strings.h"

namespace tfgpu::gpu {

namespace {

// Every TensorFlow call is guarded: a failure is a value in the JSON, never a traceback
// instead of it. Memory growth must be set before the GPU is initialised, so it comes
// first. TF_CPP_MIN_LOG_LEVEL keeps TF's C++ logging off stdout/stderr noise.
constexpr const char* kScript = R"PY(
import json, os, sys, time
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
out = {"schema": "tfgpu.tfcheck/1", "python": sys.version.split()[0]}
def mapped():
    # The shared objects this process really mapped (Linux), in first-mapped order.
    try:
        seen = []
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split(None, 5)
                if len(parts) < 6:
                    continue
                p = parts[5].strip()
                if p.endswith(" (deleted)"):
                    p = p[:-10]
                if p.startswith("/") and ".so" in p and p not in seen:
                    seen.append(p)
        return seen
    except BaseException:
        return None
def emit():
    m = mapped()
    if m is not None:
        out["maps"] = m
    sys.stdout.write("\n" + json.dumps(out) + "\n")
    sys.stdout.flush()
try:
    import tensorflow as tf
except BaseException as e:
    out["import_error"] = "%s: %s" % (type(e).__name__, e)
    emit()
    sys.exit(0)
out["tf_version"] = getattr(tf, "__version__", "")
try:
    out["built_with_cuda"] = bool(tf.test.is_built_with_cuda())
except BaseException as e:
    out["built_with_cuda"] = False
try:
    bi = tf.sysconfig.get_build_info()
    out["build_cuda"] = str(bi.get("cuda_version", ""))
    out["build_cudnn"] = str(bi.get("cudnn_version", ""))
except BaseException:
    pass
gpus = []
try:
    gpus = tf.config.list_physical_devices("GPU")
except BaseException as e:
    out["list_error"] = "%s: %s" % (type(e).__name__, e)
out["gpus"] = [g.name for g in gpus]
names, ccs = [], []
for g in gpus:
    try:
        d = tf.config.experimental.get_device_details(g)
        names.append(str(d.get("device_name", "")))
        cc = d.get("compute_capability")
        ccs.append("%d.%d" % tuple(cc) if cc else "")
    except BaseException:
        names.append("")
        ccs.append("")
out["gpu_names"] = names
out["gpu_compute_capabilities"] = ccs
if gpus:
    try:
        for g in gpus:
            tf.config.experimental.set_memory_growth(g, True)
        out["memory_growth"] = "enabled"
    except BaseException as e:
        out["memory_growth"] = "%s: %s" % (type(e).__name__, e)
else:
    out["memory_growth"] = "no GPU"
N = __SIZE__
def timed(dev):
    r = {"ran": False}
    try:
        with tf.device(dev):
            a = tf.random.stateless_uniform((N, N), seed=(1, 2))
            b = tf.random.stateless_uniform((N, N), seed=(3, 4))
            c = tf.matmul(a, b)
            _ = c.numpy()
            times = []
            for _i in range(5):
                t0 = time.perf_counter()
                c = tf.matmul(a, b)
                _ = c.numpy()
                times.append((time.perf_counter() - t0) * 1e3)
        times.sort()
        r = {"ran": True, "device": c.device, "ms": times[len(times) // 2]}
        return r, c
    except BaseException as e:
        r["error"] = "%s: %s" % (type(e).__name__, e)
        return r, None
cpu, c_cpu = timed("/CPU:0")
out["matmul_cpu"] = cpu
if gpus:
    gpu, c_gpu = timed("/GPU:0")
    out["matmul_gpu"] = gpu
    if c_gpu is not None and c_cpu is not None:
        try:
            diff = float(tf.reduce_max(tf.abs(c_gpu.cpu() if hasattr(c_gpu, "cpu") else c_gpu) - c_cpu))
            # TF32 on Ampere+ rounds inputs to 10 mantissa bits: allow for it.
            out["results_match"] = diff <= 1e-2 * N
        except BaseException as e:
            out["compare_error"] = str(e)
try:
    mp = tf.keras.mixed_precision
    mp.set_global_policy("mixed_float16")
    p = mp.global_policy()
    out["mixed_precision"] = {"policy": p.name, "compute_dtype": str(p.compute_dtype)}
    mp.set_global_policy("float32")
except BaseException as e:
    out["mixed_precision"] = {"error": "%s: %s" % (type(e).__name__, e)}
emit()
)PY";

std::string str(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

std::vector<std::string> strings(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& v : *it) out.push_back(v.is_string() ? v.get<std::string>() : "");
  return out;
}

TfMatmul matmul(const nlohmann::json& j, const char* key) {
  TfMatmul m;
  auto it = j.find(key);
  if (it == j.end() || !it->is_object()) return m;
  m.ran = it->value("ran", false);
  m.device = str(*it, "device");
  if (auto ms = it->find("ms"); ms != it->end() && ms->is_number()) m.ms = ms->get<double>();
  m.error = str(*it, "error");
  return m;
}

}  // namespace

std::string tf_check_script(int matmul_size) {
  std::string s = kScript;
  auto pos = s.find("__SIZE__");
  s.replace(pos, 8, std::to_string(matmul_size));
  return s;
}

Result<TfCheckResult> parse_tf_check(const std::string& text) {
  // TensorFlow or site hooks may print to stdout too: the report is the last line that
  // parses as our JSON object.
  auto lines = split(text, '\n');
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    auto line = trim(*it);
    if (line.empty() || line.front() != '{') continue;
    auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object() || str(j, "schema") != "tfgpu.tfcheck/1") continue;
    TfCheckResult r;
    r.python_version = str(j, "python");
    r.import_error = str(j, "import_error");
    r.tf_version = str(j, "tf_version");
    if (auto b = j.find("built_with_cuda"); b != j.end() && b->is_boolean()) r.built_with_cuda = b->get<bool>();
    r.build_cuda = str(j, "build_cuda");
    r.build_cudnn = str(j, "build_cudnn");
    r.gpus = strings(j, "gpus");
    r.gpu_names = strings(j, "gpu_names");
    r.gpu_compute_capabilities = strings(j, "gpu_compute_capabilities");
    r.memory_growth = str(j, "memory_growth");
    r.matmul_gpu = matmul(j, "matmul_gpu");
    r.matmul_cpu = matmul(j, "matmul_cpu");
    if (auto m = j.find("results_match"); m != j.end() && m->is_boolean()) r.results_match = m->get<bool>();
    if (auto m = j.find("maps"); m != j.end() && m->is_array()) r.mapped = strings(j, "maps");
    if (auto mp = j.find("mixed_precision"); mp != j.end() && mp->is_object()) {
      r.mixed_precision_policy = str(*mp, "policy");
      r.mixed_precision_compute_dtype = str(*mp, "compute_dtype");
      r.mixed_precision_error = str(*mp, "error");
    }
    return r;
  }
  return fail(Error::input("the TensorFlow check printed no tfgpu.tfcheck/1 JSON line"));
}

TfCheckResult run_tf_check(const Host& host, const std::string& python, std::chrono::milliseconds timeout) {
  ProcessSpec spec;
  spec.argv = {python, "-c", tf_check_script()};
  spec.timeout = timeout;
  auto run = host.run(spec);
  TfCheckResult r;
  if (!run) {
    r.failure = fmt::format("could not run {}: {}", python, run.error().message);
    return r;
  }
  auto parsed = parse_tf_check(run->out);
  if (parsed) return *parsed;
  std::string err = std::string(trim(run->err));
  if (err.size() > 600) err = "..." + err.substr(err.size() - 600);
  r.failure = fmt::format("{} {}; {}{}", python, run->describe(), parsed.error().message,
                          err.empty() ? "" : "; stderr: " + err);
  return r;
}

namespace {

// "/home/u/.venv/bin/python3" -> "/home/u/.venv" (the environment an env label names).
std::string env_prefix(const std::string& python) {
  auto slash = python.find_last_of("/\\");
  if (slash == std::string::npos) return python;
  std::string dir = python.substr(0, slash);
  auto up = dir.find_last_of("/\\");
  if (up != std::string::npos && (dir.substr(up + 1) == "bin" || iequals(dir.substr(up + 1), "Scripts"))) {
    return dir.substr(0, up);
  }
  return dir;
}

Result<TfPrediction> from_doctor_verdicts(const nlohmann::json& verdicts, const std::string& python) {
  if (!verdicts.is_array()) return fail(Error::input("doctor report: \"verdicts\" is not an array"));
  const nlohmann::json* chosen = nullptr;
  std::string prefix = python.empty() ? "" : env_prefix(python);
  for (const auto& v : verdicts) {
    if (!v.is_object()) continue;
    std::string env = str(v, "env");
    if (!prefix.empty() && !env.empty() && (env.find(prefix) != std::string::npos || python.find(env) == 0)) {
      chosen = &v;
      break;
    }
  }
  if (!chosen && verdicts.size() == 1 && verdicts[0].is_object()) chosen = &verdicts[0];
  if (!chosen) {
    return fail(Error::input(fmt::format("doctor report has {} verdicts and none names {}", verdicts.size(),
                                         python.empty() ? "the interpreter" : python)));
  }
  TfPrediction p;
  std::string kind = str(*chosen, "kind");
  if (kind == "will_use_gpu") {
    p.outcome = TfPrediction::Outcome::kWillUseGpu;
    if (auto g = chosen->find("gpu_count"); g != chosen->end() && g->is_number_integer() && g->get<long long>() >= 0 &&
                                            g->get<long long>() <= 4096) {
      p.gpus = g->get<int>();
    }
  } else if (kind == "will_not_use_gpu" || kind == "no_tensorflow") {
    p.outcome = TfPrediction::Outcome::kWillNotUseGpu;
  } else if (kind == "cannot_tell") {
    p.outcome = TfPrediction::Outcome::kUnknown;
  } else {
    return fail(Error::input(fmt::format("doctor report: unknown verdict kind '{}'", kind)));
  }
  p.reasons = strings(*chosen, "because");
  p.source = "tfgpu doctor" + (str(*chosen, "env").empty() ? std::string() : " (" + str(*chosen, "env") + ")");
  return p;
}

}  // namespace

Result<TfPrediction> prediction_from_json(const nlohmann::json& j, const std::string& python) {
  if (!j.is_object()) return fail(Error::input("prediction is not a JSON object"));
  if (auto v = j.find("verdicts"); v != j.end()) return from_doctor_verdicts(*v, python);
  auto w = j.find("will_use_gpu");
  if (w == j.end() || !(w->is_boolean() || w->is_null())) {
    return fail(Error::input("prediction needs \"will_use_gpu\": true, false or null"));
  }
  TfPrediction p;
  p.outcome = w->is_null() ? TfPrediction::Outcome::kUnknown
              : w->get<bool>() ? TfPrediction::Outcome::kWillUseGpu
                               : TfPrediction::Outcome::kWillNotUseGpu;
  if (auto g = j.find("gpus"); g != j.end()) {
    if (!g->is_number_integer() || g->get<long long>() < 0 || g->get<long long>() > 4096) {
      return fail(Error::input("prediction \"gpus\" must be a small non-negative integer"));
    }
    p.gpus = g->get<int>();
  }
  p.reasons = strings(j, "reasons");
  p.source = str(j, "source");
  if (auto libs = j.find("libraries"); libs != j.end()) {
    if (!libs->is_array()) return fail(Error::input("prediction \"libraries\" must be an array"));
    for (const auto& l : *libs) {
      if (!l.is_object() || str(l, "name").empty())
        return fail(Error::input("prediction \"libraries\": each entry needs a \"name\""));
      p.libraries.push_back({str(l, "name"), str(l, "component"), str(l, "path"), str(l, "path"), str(l, "why")});
    }
  }
  return p;
}

std::string describe_prediction(const TfPrediction& p) {
  std::string what;
  switch (p.outcome) {
    case TfPrediction::Outcome::kWillUseGpu:
      what = p.gpus > 0 ? fmt::format("TensorFlow will use {} GPU{}", p.gpus, p.gpus == 1 ? "" : "s")
                        : "TensorFlow will use the GPU";
      break;
    case TfPrediction::Outcome::kWillNotUseGpu:
      what = "TensorFlow will not use the GPU";
      break;
    case TfPrediction::Outcome::kUnknown:
      what = "cannot tell whether TensorFlow will use the GPU";
      break;
  }
  if (!p.reasons.empty()) what += ", because " + join(p.reasons, "; ");
  return fmt::format("{} predicted: {}", p.source.empty() ? "the prediction" : p.source, what);
}

const char* to_string(PredictionCheck::Verdict v) {
  switch (v) {
    case PredictionCheck::Verdict::kConfirmed:
      return "confirmed";
    case PredictionCheck::Verdict::kDiffers:
      return "differs";
    case PredictionCheck::Verdict::kNoPrediction:
      return "no_prediction";
    case PredictionCheck::Verdict::kNoAnswer:
      break;
  }
  return "no_answer";
}

namespace {

std::string base_name(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::vector<LibraryAgreement> compare_libraries(const std::vector<LibraryChoice>& predicted,
                                                const std::vector<std::string>& mapped, std::string* note) {
  std::vector<LibraryAgreement> out;
  auto mapped_for = [&](const LibraryChoice& l) -> std::string {
    const std::string model = l.canonical.empty() ? l.path : l.canonical;
    for (const auto& m : mapped) {
      std::string b = base_name(m);
      if ((!model.empty() && m == model) || b == l.name || b.starts_with(l.name + ".")) return m;
    }
    return "";
  };
  bool reached = false;
  for (const auto& l : predicted)
    if (l.component != "driver" && !mapped_for(l).empty()) reached = true;
  if (!reached) {
    if (note)
      *note = "TensorFlow mapped none of its CUDA libraries (it stopped before loading them: no driver or no device?), "
              "so the loader model's choices were not checked";
    return out;
  }
  for (const auto& l : predicted) {
    LibraryAgreement a;
    a.name = l.name;
    a.tf_mapped = mapped_for(l);
    a.model_chose = l.path;
    const std::string model = l.canonical.empty() ? l.path : l.canonical;
    a.agree = a.tf_mapped == model;
    out.push_back(std::move(a));
  }
  return out;
}

PredictionCheck compare_prediction(const std::optional<TfPrediction>& prediction, const TfCheckResult& obs) {
  PredictionCheck c;
  if (!obs.failure.empty()) {
    c.verdict = PredictionCheck::Verdict::kNoAnswer;
    c.summary = "TensorFlow gave no answer: " + obs.failure;
    return c;
  }
  // Reasons, not only yes/no: where each library came from, library by library.
  std::vector<std::string> library_differences;
  if (prediction && !prediction->libraries.empty()) {
    if (!obs.mapped) {
      c.libraries_note = "TensorFlow's mapped files are not known here (no /proc/self/maps)";
    } else if (!obs.import_error.empty()) {
      c.libraries_note = "`import tensorflow` failed, so no library choice was checked";
    } else {
      c.libraries = compare_libraries(prediction->libraries, *obs.mapped, &c.libraries_note);
      for (const auto& a : c.libraries) {
        if (a.agree) continue;
        const LibraryChoice* l = nullptr;
        for (const auto& x : prediction->libraries)
          if (x.name == a.name) l = &x;
        std::string model = a.model_chose.empty()
                                ? "none" + (l && !l->why.empty() ? " (" + l->why + ")" : std::string())
                                : a.model_chose + (l && !l->canonical.empty() && l->canonical != a.model_chose
                                                       ? " (= " + l->canonical + ")"
                                                       : std::string());
        library_differences.push_back(fmt::format("{}: TensorFlow mapped {}, the loader model chose {}", a.name,
                                                  a.tf_mapped.empty() ? "no such file" : a.tf_mapped, model));
      }
    }
  }
  const int seen = obs.import_error.empty() ? static_cast<int>(obs.gpus.size()) : 0;
  const bool gpu_works = seen > 0 && obs.matmul_gpu.ran && obs.matmul_gpu.device.find("GPU") != std::string::npos &&
                         obs.results_match.value_or(true);
  if (!prediction || prediction->outcome == TfPrediction::Outcome::kUnknown) {
    c.verdict = PredictionCheck::Verdict::kNoPrediction;
    c.summary = fmt::format("no prediction to compare with; TensorFlow {} {} GPU{}",
                            obs.import_error.empty() ? "sees" : "failed to import and sees", seen,
                            seen == 1 ? "" : "s");
    c.differences = library_differences;
    return c;
  }
  const auto& p = *prediction;
  if (p.outcome == TfPrediction::Outcome::kWillUseGpu) {
    if (!obs.import_error.empty()) c.differences.push_back("predicted a working TensorFlow; `import tensorflow` failed: " + obs.import_error);
    if (seen == 0) {
      c.differences.push_back("predicted TensorFlow would use the GPU; it lists no GPU");
    } else if (p.gpus > 0 && seen != p.gpus) {
      c.differences.push_back(fmt::format("predicted {} GPU{}; TensorFlow lists {}", p.gpus, p.gpus == 1 ? "" : "s", seen));
    }
    if (seen > 0 && !gpu_works) {
      c.differences.push_back(
          obs.matmul_gpu.error.empty()
              ? fmt::format("TensorFlow lists the GPU but the matmul on /GPU:0 {}",
                            !obs.matmul_gpu.ran                     ? "did not run"
                            : obs.results_match == false            ? "gave a different result from the CPU"
                                                                    : "ran on " + obs.matmul_gpu.device)
              : "TensorFlow lists the GPU but the matmul on /GPU:0 failed: " + obs.matmul_gpu.error);
    }
  } else if (seen > 0) {
    c.differences.push_back(fmt::format("predicted TensorFlow would not use the GPU; it lists {} GPU{}{}", seen,
                                        seen == 1 ? "" : "s", gpu_works ? " and ran a matmul on /GPU:0" : ""));
  }
  c.differences.insert(c.differences.end(), library_differences.begin(), library_differences.end());
  if (c.differences.empty()) {
    c.verdict = PredictionCheck::Verdict::kConfirmed;
    c.summary = p.outcome == TfPrediction::Outcome::kWillUseGpu
                    ? fmt::format("prediction confirmed: TensorFlow uses {} GPU{}", seen, seen == 1 ? "" : "s")
                    : "prediction confirmed: TensorFlow does not use the GPU";
    if (!c.libraries.empty())
      c.summary += fmt::format("; all {} CUDA libraries are the files the loader model chose", c.libraries.size());
  } else {
    c.verdict = PredictionCheck::Verdict::kDiffers;
    c.summary = "PREDICTION DIFFERS FROM TENSORFLOW'S REAL ANSWER";
  }
  return c;
}

nlohmann::json to_json(const TfCheckResult& r) {
  auto mm = [](const TfMatmul& m) {
    nlohmann::json j = {{"ran", m.ran}, {"device", m.device}, {"ms", m.ms}};
    if (!m.error.empty()) j["error"] = m.error;
    return j;
  };
  nlohmann::json j = {{"python", r.python_version},
                      {"tf_version", r.tf_version},
                      {"built_with_cuda", r.built_with_cuda},
                      {"build_cuda", r.build_cuda},
                      {"build_cudnn", r.build_cudnn},
                      {"gpus", r.gpus},
                      {"gpu_names", r.gpu_names},
                      {"gpu_compute_capabilities", r.gpu_compute_capabilities},
                      {"memory_growth", r.memory_growth},
                      {"matmul_gpu", mm(r.matmul_gpu)},
                      {"matmul_cpu", mm(r.matmul_cpu)},
                      {"mixed_precision", {{"policy", r.mixed_precision_policy},
                                           {"compute_dtype", r.mixed_precision_compute_dtype},
                                           {"error", r.mixed_precision_error}}}};
  j["results_match"] = r.results_match ? nlohmann::json(*r.results_match) : nlohmann::json(nullptr);
  if (!r.import_error.empty()) j["import_error"] = r.import_error;
  if (!r.failure.empty()) j["failure"] = r.failure;
  return j;
}

nlohmann::json to_json(const PredictionCheck& c) {
  nlohmann::json libs = nlohmann::json::array();
  for (const auto& a : c.libraries)
    libs.push_back({{"name", a.name}, {"tf_mapped", a.tf_mapped}, {"model_chose", a.model_chose}, {"agree", a.agree}});
  nlohmann::json j = {{"verdict", to_string(c.verdict)}, {"summary", c.summary}, {"differences", c.differences},
                      {"libraries", libs}};
  if (!c.libraries_note.empty()) j["libraries_note"] = c.libraries_note;
  return j;
}

}  // namespace tfgpu::gpu
