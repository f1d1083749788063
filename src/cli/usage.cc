#include "cli/usage.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "report/text_wrap.h"
#include "util/strings.h"

namespace tfgpu::usage {

namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

std::string shown(const std::string& value) { return value.empty() ? "an empty value" : fmt::format("'{}'", value); }

// Global options that take a value: their value is not a command name nor an option.
bool global_takes_value(std::string_view name) { return name == "--kb" || name == "--color"; }

struct OptionName {
  std::string name;  // "--json", "-h"
  bool takes_value = false;
};

std::vector<OptionName> option_names(const CLI::App& app) {
  std::vector<OptionName> out;
  for (const CLI::Option* o : app.get_options()) {
    bool value = o->get_expected_min() > 0;
    for (const auto& l : o->get_lnames()) out.push_back({"--" + l, value});
    for (const auto& s : o->get_snames()) out.push_back({"-" + s, value});
  }
  return out;
}

const OptionName* find_option(const std::vector<OptionName>& names, std::string_view name) {
  for (const auto& n : names)
    if (n.name == name) return &n;
  return nullptr;
}

}  // namespace

CLI::Validator version_value(std::string example, int min_parts, int max_parts) {
  auto check = [example, min_parts, max_parts](std::string& value) -> std::string {
    std::vector<std::string> parts = split(value, '.');
    bool ok = !value.empty() && static_cast<int>(parts.size()) >= min_parts &&
              static_cast<int>(parts.size()) <= max_parts;
    for (const auto& p : parts) ok = ok && all_digits(p) && p.size() <= 6;
    if (ok) return {};
    return fmt::format("{} is not a version; give one like {} (numbers and dots only)", shown(value), example);
  };
  return CLI::Validator(check, "VERSION", "version");
}

CLI::Validator seconds_value(double lo, double hi) {
  auto check = [lo, hi](std::string& value) -> std::string {
    const char* begin = value.c_str();
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(begin, &end);
    bool ok = !value.empty() && end != begin && *end == '\0' && errno == 0 && std::isfinite(v) && v >= lo && v <= hi;
    if (ok) return {};
    return fmt::format("{} is not a number of seconds from {:g} to {:g} (e.g. 10 or 2.5)", shown(value), lo, hi);
  };
  return CLI::Validator(check, "SECONDS", "seconds");
}

CLI::Validator whole_number(long lo, long hi) {
  auto check = [lo, hi](std::string& value) -> std::string {
    bool ok = all_digits(value) || (value.size() > 1 && value[0] == '-' && all_digits(value.substr(1)));
    if (ok) {
      errno = 0;
      long v = std::strtol(value.c_str(), nullptr, 10);
      ok = errno == 0 && v >= lo && v <= hi;
    }
    if (ok) return {};
    return fmt::format("{} is not a whole number from {} to {}", shown(value), lo, hi);
  };
  return CLI::Validator(check, "N", "whole number");
}

void refuse_empty_values(CLI::App& app) {
  for (CLI::Option* o : app.get_options()) {
    if (o->get_expected_min() <= 0) continue;  // a flag (--help, --json): no value
    std::string shape = o->get_option_text();
    if (shape.empty()) shape = o->get_positional() ? o->get_name() : "a value";
    // A transform runs before the option's other checks: "empty" is said first.
    o->transform(CLI::Validator(
        [shape](std::string& value) -> std::string {
          if (!trim(value).empty()) return {};
          return fmt::format("the value is empty; give {}", shape);
        },
        "", "non-empty"));
  }
}

std::optional<std::string> closest(std::string_view wanted, const std::vector<std::string>& choices) {
  if (wanted.empty()) return std::nullopt;
  std::optional<std::string> best;
  size_t best_d = std::numeric_limits<size_t>::max();
  bool tie = false;
  for (const auto& c : choices) {
    size_t d = edit_distance(wanted, c);
    if (d < best_d) {
      best = c, best_d = d, tie = false;
    } else if (d == best_d && best != c) {
      tie = true;
    }
  }
  if (best && best_d <= 2 && best_d * 2 < wanted.size() && !tie) return best;
  // "--mark" for "--markdown": a prefix of exactly one choice.
  std::optional<std::string> prefixed;
  for (const auto& c : choices) {
    if (c.size() > wanted.size() && starts_with(c, wanted)) {
      if (prefixed && *prefixed != c) return std::nullopt;
      prefixed = c;
    }
  }
  if (wanted.size() >= 3 && wanted != "--") return prefixed;
  return std::nullopt;
}

std::string parse_error_line(const std::vector<std::string>& args, CLI::App& app, const CLI::ParseError& e) {
  std::vector<OptionName> global = option_names(app);
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    commands.push_back(sub->get_name());

  // The command: the first word that is neither an option nor a global option's value.
  CLI::App* sub = nullptr;
  std::string prefix = "tfgpu";
  size_t command_at = args.size();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") break;
    if (starts_with(a, "-") && a.size() > 1) {
      if (global_takes_value(a)) ++i;
      continue;
    }
    command_at = i;
    try {
      sub = app.get_subcommand(a);
    } catch (const CLI::OptionNotFound&) {
      sub = nullptr;
    }
    if (!sub) {
      auto near = closest(a, commands);
      return fmt::format("tfgpu: unknown command '{}'{} (commands: {}; see tfgpu --help)", a,
                         near ? fmt::format("; did you mean '{}'?", *near) : "", join(commands, ", "));
    }
    prefix = "tfgpu " + a;
    break;
  }

  // An option neither the command nor the global options know.
  std::vector<OptionName> known = global;
  if (sub)
    for (auto& n : option_names(*sub)) known.push_back(n);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (i == command_at) continue;
    if (a == "--") break;
    if (!starts_with(a, "-") || a.size() == 1) continue;
    std::string name = a.substr(0, a.find('='));
    if (const OptionName* o = find_option(known, name)) {
      if (o->takes_value && name.size() == a.size()) ++i;  // its value may start with '-'
      continue;
    }
    std::vector<std::string> names;
    for (const auto& n : known)
      if (starts_with(n.name, "--")) names.push_back(n.name);
    auto near = closest(name, names);
    return fmt::format("{}: unknown option '{}'{} (see {} --help)", prefix, name,
                       near ? fmt::format("; did you mean '{}'?", *near) : "", prefix);
  }
  std::string what = e.what();
  while (!what.empty() && what.back() == '\n') what.pop_back();
  return fmt::format("{}: {} (see {} --help)", prefix, what, prefix);
}

bool supports(const CommandSpec& spec, OutputFormat format) {
  return format != OutputFormat::kMarkdown || spec.outputs == Outputs::kTextJsonMarkdown;
}

std::string describe_outputs(const CommandSpec& spec) {
  return spec.outputs == Outputs::kTextJsonMarkdown ? "text, --json and --markdown" : "text and --json";
}

std::string help_footer(const CommandSpec& spec) {
  std::string out = "Global options (before or after the command):\n";
  out += fmt::format("  {:<16}{}\n", "--json", "Machine-readable JSON output (schema in docs/)");
  if (supports(spec, OutputFormat::kMarkdown))
    out += fmt::format("  {:<16}{}\n", "--markdown", "Markdown to paste into a bug report (redacted)");
  out += fmt::format("  {:<16}{}\n", "--kb DIR", "Read the knowledge base from DIR/*.toml instead of the built-in copy");
  out += fmt::format("  {:<16}{}\n", "--color WHEN", "auto (terminal only, honours NO_COLOR), always, never");
  out += "\nExamples:\n";
  for (const char* ex : spec.examples)
    if (ex) out += fmt::format("  {}\n", ex);
  out += "\nExit codes: 0 all good, 1 problems found, 2 usage or input error, 3 internal error.";
  return out;
}

std::string short_usage(std::span<const CommandSpec> commands) {
  std::string out = "usage: tfgpu <command> [options]\n\n";
  for (const auto& c : commands)
    if (!c.hidden) out += fmt::format("  {:<9}{}\n", c.name, c.summary);
  out += "\nStart with `tfgpu doctor`. Help: `tfgpu <command> --help`, `tfgpu --help`.\n";
  return report::wrap_text(out, report::kDefaultTextWidth);
}

}  // namespace tfgpu::usage
