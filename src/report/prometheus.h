#pragma once
// A doctor run as Prometheus metrics in the text exposition format, for node_exporter's
// textfile collector (`tfgpu probe --prometheus --out /var/lib/node_exporter/tfgpu.prom`):
// per-environment readiness, driver and GPU info, finding counts by id. Metric names and
// labels are documented in docs/prometheus.md; a pure function of the report.

#include <string>

#include "report/doctor_report.h"

namespace tfgpu::report {

std::string render_prometheus(const DoctorReport& r, const std::string& tool_version);

// A label value as the exposition format wants it: valid UTF-8 (invalid bytes and control
// characters become U+FFFD), with \\ \" and \n escaped.
std::string prometheus_label_value(std::string_view v);

}  // namespace tfgpu::report
