#include "probe/windows_pci.h"

#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "util/strings.h"

namespace tfgpu::probe {

namespace {

constexpr uint16_t kNvidiaVendor = 0x10de;

struct HexField {
  uint32_t value = 0;
  size_t digits = 0;
};

// The hex digits after `tag` ("ven_", lower case) in an '&'- or '\\'-separated id.
std::optional<HexField> hex_field(std::string_view id, std::string_view tag, size_t min_digits, size_t max_digits) {
  std::string lower = to_lower(id);
  size_t pos = 0;
  while ((pos = lower.find(tag, pos)) != std::string::npos) {
    bool at_boundary = pos == 0 || lower[pos - 1] == '&' || lower[pos - 1] == '\\';
    size_t start = pos + tag.size();
    pos = start;
    if (!at_boundary) continue;
    size_t end = start;
    while (end < lower.size() && std::isxdigit(static_cast<unsigned char>(lower[end]))) ++end;
    size_t n = end - start;
    if (n < min_digits || n > max_digits) return std::nullopt;
    if (end < lower.size() && lower[end] != '&' && lower[end] != '\\') return std::nullopt;
    HexField f;
    f.digits = n;
    std::from_chars(lower.data() + start, lower.data() + end, f.value, 16);
    return f;
  }
  return std::nullopt;
}

bool is_pci(std::string_view id) { return id.size() >= 4 && iequals(id.substr(0, 4), "PCI\\"); }

}  // namespace

std::optional<PciIds> parse_pci_hardware_id(std::string_view id) {
  if (!is_pci(id)) return std::nullopt;
  auto ven = hex_field(id, "ven_", 4, 4);
  auto dev = hex_field(id, "dev_", 4, 4);
  if (!ven || !dev) return std::nullopt;
  return PciIds{static_cast<uint16_t>(ven->value), static_cast<uint16_t>(dev->value)};
}

std::optional<uint16_t> parse_pci_class(const std::vector<std::string>& compatible_ids) {
  for (const auto& id : compatible_ids) {
    if (!is_pci(id)) continue;
    // CC_ is 4 (class + subclass) or 6 (with the programming interface) hex digits.
    auto cc = hex_field(id, "cc_", 4, 6);
    if (cc && (cc->digits == 4 || cc->digits == 6)) return static_cast<uint16_t>(cc->digits == 6 ? cc->value >> 8 : cc->value);
  }
  return std::nullopt;
}

std::optional<std::string> pci_bus_id_from_location(std::string_view location) {
  std::vector<uint32_t> numbers;
  size_t i = 0;
  while (i < location.size()) {
    if (!std::isdigit(static_cast<unsigned char>(location[i]))) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < location.size() && std::isdigit(static_cast<unsigned char>(location[i]))) ++i;
    if (i - start > 3) return std::nullopt;  // bus <= 255: longer is not a PCI location
    uint32_t v = 0;
    std::from_chars(location.data() + start, location.data() + i, v);
    numbers.push_back(v);
    if (numbers.size() > 3) return std::nullopt;
  }
  if (numbers.size() != 3 || numbers[0] > 255 || numbers[1] > 31 || numbers[2] > 7) return std::nullopt;
  return fmt::format("0000:{:02x}:{:02x}.{}", numbers[0], numbers[1], numbers[2]);
}

WindowsPciScan scan_windows_pci(const std::vector<PciDevice>& devices) {
  WindowsPciScan out;
  for (const auto& d : devices) {
    std::optional<PciIds> ids;
    for (const auto& h : d.hardware_ids)
      if ((ids = parse_pci_hardware_id(h))) break;
    if (!ids || ids->vendor != kNvidiaVendor) continue;
    auto cls = parse_pci_class(d.compatible_ids);
    bool gpu = cls ? (*cls == 0x0300 || *cls == 0x0302) : iequals(d.device_class, "Display");
    if (!gpu) {
      ++out.nvidia_other;
      continue;
    }
    out.gpus.push_back({*ids, pci_bus_id_from_location(d.location).value_or(""), d.description});
  }
  return out;
}

}  // namespace tfgpu::probe
