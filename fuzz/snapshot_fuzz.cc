// libFuzzer target: the snapshot reader (`doctor --snapshot`, `plan --snapshot`, `fleet`)
// and everything downstream of a snapshot that parses: the doctor's rules and verdicts,
// and its text, JSON and Markdown renderings. A snapshot is untrusted input from another
// machine; it may be refused, never crash tfgpu.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kb/kb.h"
#include "report/doctor_report.h"
#include "snapshot/snapshot_json.h"
#include "util/json_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tfgpu;
  static const auto kb = kb::load_embedded();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto s = parse_snapshot(text, "fuzz.json");
  if (!s || !kb) return 0;
  DoctorReport r = diagnose(*s, *kb);
  (void)render_doctor_text(r, Color::kOff);
  (void)dump_json(doctor_to_json(r));
  (void)render_doctor_markdown(r);
  return 0;
}
