#include "probe/probe_child.h"

#include <fmt/format.h>

#include "util/strings.h"

namespace tfgpu::probe {

using nlohmann::json;

namespace {

// The last "tfgpu-stage: <call>" line the child wrote before it died.
std::string last_stage(const std::string& err) {
  std::string stage;
  for (const auto& line : split(err, '\n')) {
    if (starts_with(line, "tfgpu-stage: ")) stage = line.substr(13);
  }
  return stage;
}

std::string first_line_of(const std::string& text) {
  for (const auto& line : split(text, '\n')) {
    if (!trim(line).empty() && !starts_with(line, "tfgpu-stage: ")) return std::string(trim(line));
  }
  return "";
}

}  // namespace

ChildAnswer run_vendor_child(const Host& host, const ProbeOptions& options, VendorLibrary library,
                             const std::string& path) {
  ChildAnswer a;
  a.attempt.library = vendor_library_name(library);
  ProcessSpec spec;
  spec.argv = {options.self_exe.empty() ? host.self_exe() : options.self_exe, "__probe-driver", "--library",
               vendor_library_name(library)};
  if (!path.empty()) {
    spec.argv.push_back("--path");
    spec.argv.push_back(path);
  }
  spec.timeout = options.child_timeout;
  spec.env_overrides = options.child_env;
  keep_child_loader_off_current_dir(host, spec);  // never ./libnvidia-ml.so.1 from an empty LD_LIBRARY_PATH element
  spec.max_output = 1u << 20;
  auto r = host.run(spec);
  if (!r) {
    a.attempt.init_result = "failed: cannot start the probe child: " + r.error().message;
    a.summary = a.attempt.init_result;
    return a;
  }
  if (r->timed_out || !r->exited) {
    std::string stage = last_stage(r->err);
    a.attempt.init_result = r->timed_out
                                ? fmt::format("timed out after {} ms", options.child_timeout.count())
                                : r->describe();
    if (!stage.empty()) a.attempt.init_result += " in " + stage;
    if (!path.empty()) a.attempt.tried = {path};
    a.summary = a.attempt.library + " " + a.attempt.init_result;
    return a;
  }
  json j = json::parse(r->out, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) {
    // A library that exits (even with 0) while being loaded or initialised is a failure
    // of that library, not the absence of a driver.
    std::string why = first_line_of(r->err);
    std::string stage = last_stage(r->err);
    a.attempt.init_result = fmt::format("failed: the probe child ({}) printed no answer{}{}", r->describe(),
                                        stage.empty() ? "" : " in " + stage, why.empty() ? "" : ": " + why);
    if (!path.empty()) a.attempt.tried = {path};
    a.summary = a.attempt.init_result;
    return a;
  }
  a.json = j;
  auto strings = [&](const char* key) {
    std::vector<std::string> out;
    if (j.contains(key) && j[key].is_array())
      for (const auto& v : j[key])
        if (v.is_string()) out.push_back(v.get<std::string>());
    return out;
  };
  a.attempt.tried = strings("tried");
  a.attempt.errors = strings("errors");
  if (j.contains("path") && j["path"].is_string()) a.attempt.opened = j["path"].get<std::string>();
  if (a.attempt.opened.empty() && j.contains("opened") && j["opened"].is_string())
    a.attempt.opened = j["opened"].get<std::string>();
  if (j.contains("init_result") && j["init_result"].is_string()) a.attempt.init_result = j["init_result"].get<std::string>();
  a.ok = j.contains("ok") && j["ok"].is_boolean() && j["ok"].get<bool>();
  if (a.ok) {
    a.summary = a.attempt.library + " ok";
  } else if (a.attempt.opened.empty()) {
    a.summary = a.attempt.errors.empty() ? a.attempt.library + " not loaded" : a.attempt.errors.back();
  } else {
    a.summary = fmt::format("{} {}", a.attempt.opened, a.attempt.init_result);
  }
  return a;
}

}  // namespace tfgpu::probe
