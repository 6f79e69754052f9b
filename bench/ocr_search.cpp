// The OCR benchmark (bench/run.sh ocr; docs/performance.md, "OCR"): every screen that
// bench/ocr_screens.py drew in DIR is read with recognise_png, and every label drawn on it is
// searched for as a phrase (find_phrase, Equals). A label counts as found when it is read
// there at least once; its tap lands right when it is read exactly once and the centre of
// the words' box lies in the label's box (a button's own box, else its text's). A search's
// time is that of the first phrase on a screen not read before: the recognition, the lines
// grouped, the phrase found; the screen's other phrases come from the cache and are timed
// apart.
//
// Usage: ocr_search DIR [DOWNSCALE_SHORT_SIDE_TO]
// Prints one markdown row per screen size and one for all, then the misses.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "clawperator/json.hpp"
#include "clawperator/ocr/engine.hpp"

namespace fs = std::filesystem;
using namespace clawperator::ocr;

namespace {

constexpr long kOneScreenRounds = 20;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// The CPU time of all the process's threads (Tesseract's OpenMP ones too): what a search costs
// the machine, whatever else runs on it.
double process_cpu_ms() {
  timespec now{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

double percentile(std::vector<double> values, double share) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto index = static_cast<std::size_t>(share * static_cast<double>(values.size() - 1));
  return values[index];
}

struct Tally {
  int screens = 0;
  int labels = 0;
  int found = 0;
  int tapped_right = 0;
  std::vector<double> first_search_ms;
  std::vector<double> first_search_cpu_ms;
  std::vector<double> cached_search_ms;

  void add(const Tally& other) {
    screens += other.screens;
    labels += other.labels;
    found += other.found;
    tapped_right += other.tapped_right;
    first_search_ms.insert(first_search_ms.end(), other.first_search_ms.begin(),
                           other.first_search_ms.end());
    first_search_cpu_ms.insert(first_search_cpu_ms.end(), other.first_search_cpu_ms.begin(),
                               other.first_search_cpu_ms.end());
    cached_search_ms.insert(cached_search_ms.end(), other.cached_search_ms.begin(),
                            other.cached_search_ms.end());
  }
};

void print_row(const std::string& name, const Tally& tally) {
  std::printf("| %s | %d | %d | %.1f %% | %.1f %% | %.0f | %.0f | %.0f | %.2f |\n", name.c_str(),
              tally.screens, tally.labels, 100.0 * tally.found / tally.labels,
              100.0 * tally.tapped_right / tally.labels, percentile(tally.first_search_ms, 0.5),
              percentile(tally.first_search_ms, 0.9), percentile(tally.first_search_cpu_ms, 0.5),
              percentile(tally.cached_search_ms, 0.5));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: ocr_search DIR [DOWNSCALE_SHORT_SIDE_TO]\n");
    return 2;
  }
  RecogniseOptions options;
  if (argc > 2) options.downscale_short_side_to = static_cast<std::uint32_t>(std::stoul(argv[2]));
  std::vector<fs::path> screens;
  for (const auto& entry : fs::directory_iterator(argv[1])) {
    if (entry.path().extension() == ".json") screens.push_back(entry.path());
  }
  std::sort(screens.begin(), screens.end());
  if (screens.empty()) {
    std::fprintf(stderr, "ocr_search: no screens in %s (bench/ocr_screens.py draws them)\n",
                 argv[1]);
    return 2;
  }

  // The engine's first use loads the language's data: timed apart, not as a search.
  const auto loading = std::chrono::steady_clock::now();
  {
    fs::path first = screens.front();
    const auto warm = recognise_png(read_file(first.replace_extension(".png")), [&] {
      RecogniseOptions small = options;
      small.region = Box{0, 0, 8, 8};
      return small;
    }());
    if (!warm) {
      std::fprintf(stderr, "ocr_search: %s\n", warm.error().message.c_str());
      return 1;
    }
  }
  const double load_ms = milliseconds_since(loading);

  std::map<std::string, Tally> by_size;
  std::vector<std::string> misses;
  for (const fs::path& description_path : screens) {
    const clawperator::Json description = clawperator::parse_json(read_file(description_path));
    fs::path png_path = description_path;
    const std::string png = read_file(png_path.replace_extension(".png"));
    const std::string size = std::to_string(description["width"].get<int>()) + "x" +
                             std::to_string(description["height"].get<int>());
    Tally& tally = by_size[size];
    ++tally.screens;
    bool first = true;
    for (const auto& label : description["labels"]) {
      const std::string text = label["label"].get<std::string>();
      const auto& corners = label["box"];
      const Box box{corners[0].get<long>(), corners[1].get<long>(), corners[2].get<long>(),
                    corners[3].get<long>()};
      const auto started = std::chrono::steady_clock::now();
      const double cpu_started = process_cpu_ms();
      const auto words = recognise_png(png, options);
      if (!words) {
        std::fprintf(stderr, "ocr_search: %s: %s\n", png_path.c_str(),
                     words.error().message.c_str());
        return 1;
      }
      const auto matches = find_phrase(group_lines(*words), text, PhraseMode::Equals);
      (first ? tally.first_search_ms : tally.cached_search_ms)
          .push_back(milliseconds_since(started));
      if (first) tally.first_search_cpu_ms.push_back(process_cpu_ms() - cpu_started);
      first = false;
      ++tally.labels;
      if (!matches.empty()) ++tally.found;
      const bool right =
          matches.size() == 1 && box.holds((matches[0].box.left + matches[0].box.right) / 2.0,
                                           (matches[0].box.top + matches[0].box.bottom) / 2.0);
      if (right) {
        ++tally.tapped_right;
      } else {
        std::string read;
        for (const Line& line : group_lines(*words)) read += " | " + line.text;
        misses.push_back(png_path.filename().string() + ": \"" + text + "\" (" +
                         std::to_string(matches.size()) + " matches); read:" + read);
      }
    }
  }

  std::printf(
      "| screens | n | labels | found | taps in the right box | first search: median ms | p90 ms "
      "| median CPU ms | cached search: median ms |\n|---|---|---|---|---|---|---|---|---|\n");
  Tally all;
  for (const auto& [size, tally] : by_size) {
    print_row(size, tally);
    all.add(tally);
  }
  print_row("all", all);
  std::printf("\nengine loaded (eng) in %.0f ms; downscale_short_side_to %u\n", load_ms,
              options.downscale_short_side_to);
  const RecognitionCounts counts = recognition_counts();
  std::printf("recognitions %llu, answered from the cache %llu\n",
              static_cast<unsigned long long>(counts.recognised),
              static_cast<unsigned long long>(counts.answered_from_cache));
  // One 1080x2400 screen searched again and again for its first label: regions that all clip
  // to the whole screen read it whole each time, each under its own cache key.
  const auto one = std::find_if(screens.begin(), screens.end(), [](const fs::path& path) {
    return path.filename().string().find("-1080x2400-") != std::string::npos;
  });
  if (one != screens.end()) {
    const clawperator::Json description = clawperator::parse_json(read_file(*one));
    fs::path png_path = *one;
    const std::string png = read_file(png_path.replace_extension(".png"));
    const std::string phrase = description["labels"][0]["label"].get<std::string>();
    std::vector<double> wall_ms;
    std::vector<double> cpu_ms;
    for (long round = 0; round < kOneScreenRounds; ++round) {
      RecogniseOptions whole = options;
      whole.region = Box{0, 0, 1080, 2400 + round};
      const auto started = std::chrono::steady_clock::now();
      const double cpu_started = process_cpu_ms();
      const auto words = recognise_png(png, whole);
      const bool found =
          words && !find_phrase(group_lines(*words), phrase, PhraseMode::Equals).empty();
      wall_ms.push_back(milliseconds_since(started));
      cpu_ms.push_back(process_cpu_ms() - cpu_started);
      if (!found) std::printf("one screen: \"%s\" not found in round %ld\n", phrase.c_str(), round);
    }
    std::printf(
        "one screen (%s), \"%s\" searched %ld times: median %.0f ms, p90 %.0f ms, "
        "median CPU %.0f ms\n",
        png_path.filename().c_str(), phrase.c_str(), kOneScreenRounds, percentile(wall_ms, 0.5),
        percentile(wall_ms, 0.9), percentile(cpu_ms, 0.5));
  }
  if (!misses.empty()) std::printf("\nmisses:\n");
  for (const std::string& miss : misses) std::printf("- %s\n", miss.c_str());
}
