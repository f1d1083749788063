// Text reports wrapped to the terminal's width with a hanging indent (report/text_wrap.h),
// and the width tfgpu picks: COLUMNS, else the terminal's, else 80.
#include <sstream>

#include <gtest/gtest.h>

#include "cli/command.h"
#include "host/fake_host.h"
#include "report/text_wrap.h"
#include "support/doctor_scenarios.h"
#include "util/strings.h"
#include "util/terminal_text.h"

namespace tfgpu {
namespace {

using report::display_width;
using report::hanging_indent;
using report::wrap_line;
using report::wrap_text;

// The widest line, leaving out lines that are one word (a URL, a path) after their indent:
// words are never split, so those may pass the edge.
size_t widest(const std::string& text) {
  size_t w = 0;
  for (const auto& l : split(text, '\n')) {
    std::string_view t = trim(l);
    if (display_width(t.substr(t.rfind(' ') + 1)) >= 30) continue;
    w = std::max(w, display_width(l));
  }
  return w;
}

TEST(TextWrap, WidthCountsCodePointsAndSkipsColour) {
  EXPECT_EQ(display_width("abc"), 3u);
  EXPECT_EQ(display_width("✓ ok"), 4u);
  EXPECT_EQ(display_width("\x1b[1;31m✗\x1b[0m x"), 3u);
  EXPECT_EQ(display_width("naïve"), 5u);
  // tfgpu's own colour (util/terminal_text.h sgr), before the output filter untags it.
  EXPECT_EQ(display_width(sgr("31") + "✗" + sgr("0") + " x"), 3u);
}

TEST(TextWrap, HangingIndentFollowsTheMarkerOrTheLabelColumn) {
  EXPECT_EQ(hanging_indent("  ✓ hardware   Windows 10 Pro"), 15u);
  EXPECT_EQ(hanging_indent("  [ok] hardware   Windows 10 Pro"), 18u);
  EXPECT_EQ(hanging_indent("      - no NVIDIA PCI device (sysfs)"), 8u);
  EXPECT_EQ(hanging_indent("        1. TensorFlow can only use"), 11u);
  EXPECT_EQ(hanging_indent("           A1. C:\\Users\\python.exe -m pip"), 15u);
  EXPECT_EQ(hanging_indent("  \x1b[31m✗\x1b[0m TensorFlow 2.12.0 on native"), 4u);
  EXPECT_EQ(hanging_indent("plain text"), 0u);
  // A double space late in a sentence is not a label column.
  EXPECT_EQ(hanging_indent("  - python -m pip install \"tensorflow<2.11\"  (pip takes 2.10.x)"), 4u);
}

TEST(TextWrap, LongLinesBreakAtSpacesWithTheHangAndNeverSplitAWord) {
  std::string line = "        1. TensorFlow can only use an NVIDIA GPU with CUDA: run on a machine that has one "
                     "(a workstation with a GeForce/RTX card, or a cloud VM with an NVIDIA GPU)";
  std::string w = wrap_line(line, hanging_indent(line), 80);
  EXPECT_LE(widest(w), 80u) << w;
  for (const auto& l : split(w, '\n')) {
    if (l.rfind("        1. ", 0) == 0) continue;
    EXPECT_EQ(l.rfind("           ", 0), 0u) << "continuation aligned under the text: '" << l << "'";
    EXPECT_NE(l[11], ' ') << l;
  }
  // Same words, same order.
  std::string joined;
  for (const auto& part : split(w, '\n')) joined += std::string(trim(part)) + " ";
  EXPECT_EQ(std::string(trim(joined)), std::string(trim(line)));
  // A path longer than the line stays whole, on its own line.
  std::string path(120, 'p');
  std::string w2 = wrap_line("  - at /" + path + " (sysfs)", 4, 80);
  EXPECT_NE(w2.find("/" + path), std::string::npos) << w2;
  EXPECT_EQ(wrap_line("short", 0, 80), "short");
}

TEST(TextWrap, NoBreakInsideTheLabelOfTheFirstLine) {
  std::string line = "  ✗ framework  conda env 'tf': Python 3.10.11, tensorflow 2.12.0 [active] and many more words here";
  std::string w = wrap_line(line, hanging_indent(line), 40);
  EXPECT_EQ(w.rfind("  ✗ framework  conda", 0), 0u) << w;
}

TEST(TextWrap, DoctorTextFitsEightyColumnsExceptForLongWords) {
  for (const auto& name : testing::scenario_names()) {
    FakeHost host;
    host.add_file("/s.json", testing::read_text(testing::scenario_dir() + "/" + name + ".json"));
    std::ostringstream out, err;
    run_cli({"doctor", "--snapshot", "/s.json"}, host, out, err);
    for (const auto& l : split(out.str(), '\n')) {
      if (display_width(l) <= 80) continue;
      // Only a word too long for any line passes the edge (a path, a command): it ends
      // the line, and it is long.
      std::string_view last = l;
      last = last.substr(last.rfind(' ') + 1);
      EXPECT_GT(display_width(last), 24u)
          << name << ": '" << l << "'";
    }
  }
}

TEST(TextWidth, ColourDoesNotNarrowTheLines) {
  FakeHost host;
  host.add_file("/s.json", testing::read_text(testing::scenario_dir() + "/win_classic_guide_tf212.json"));
  std::ostringstream plain, coloured, err;
  run_cli({"--color", "never", "doctor", "--snapshot", "/s.json"}, host, plain, err);
  run_cli({"--color", "always", "doctor", "--snapshot", "/s.json"}, host, coloured, err);
  // Same line breaks: the coloured text has as many lines as the plain one.
  const std::string p = plain.str(), c = coloured.str();
  EXPECT_EQ(std::count(p.begin(), p.end(), '\n'), std::count(c.begin(), c.end(), '\n')) << c;
  EXPECT_NE(c.find("\x1b[31m"), std::string::npos);
}

TEST(TextWidth, ColumnsThenTheTerminalThenEighty) {
  auto width_of = [](FakeHost& host, bool tty, std::optional<int> cols) {
    host.add_file("/s.json", testing::read_text(testing::scenario_dir() + "/win_classic_guide_tf212.json"));
    std::ostringstream out, err;
    run_cli({"--color", "never", "doctor", "--snapshot", "/s.json"}, host, out, err, tty, cols);
    return widest(out.str());
  };
  FakeHost file_host;
  EXPECT_LE(width_of(file_host, false, 132), 80u) << "not a terminal: 80 columns";
  FakeHost tty_host;
  EXPECT_LE(width_of(tty_host, true, 60), 60u);
  EXPECT_GT(width_of(tty_host, true, 200), 80u);
  FakeHost wide;
  wide.set_env("COLUMNS", "200");
  EXPECT_GT(width_of(wide, true, 60), 80u) << "COLUMNS wins";
  FakeHost narrow;
  narrow.set_env("COLUMNS", "50");
  EXPECT_LE(width_of(narrow, false, std::nullopt), 50u) << "COLUMNS also holds for a file";
}

}  // namespace
}  // namespace tfgpu
