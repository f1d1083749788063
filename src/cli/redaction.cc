// This machine's user and host names for redacting what tfgpu publishes (--markdown,
// probe --json --redact). Read through the Host: environment and the kernel's host name.
#include "cli/command.h"
#include "util/strings.h"

namespace tfgpu {

report::Redactor local_redactor(const Host& host) {
  report::Redactor r;
  for (const char* var : {"USER", "LOGNAME", "USERNAME"})
    if (auto v = host.env(var); v && !v->empty()) r.add_user(*v);
  for (const char* var : {"HOME", "USERPROFILE"})
    if (auto v = host.env(var); v && !v->empty()) r.add_home(*v);
  for (const char* var : {"HOSTNAME", "COMPUTERNAME"})
    if (auto v = host.env(var); v && !v->empty()) r.add_host(*v);
  for (const char* file : {"/proc/sys/kernel/hostname", "/etc/hostname"})
    if (auto v = host.read_file(file, 256); v && !trim(*v).empty()) r.add_host(trim(*v));
  return r;
}

}  // namespace tfgpu
