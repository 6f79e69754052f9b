// The README's "Use" script, run as written against clawperator-vdevice with: what a new user
// copies first must work.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "farm_fixture.hpp"
#include "test_locations.hpp"

using clawperator::testing::read_file;
using clawperator::testing::RunResult;
using clawperator::testing::TemporaryDirectory;
using nlohmann::json;

TEST_CASE("the README's Use script runs as written against clawperator-vdevice with",
          "[integration][readme]") {
  const std::string readme = read_file(CLAWPERATOR_README);
  const std::string begin = "<!-- readme-use-script -->\n```sh\n";
  const std::string end = "```\n<!-- /readme-use-script -->";
  const auto from = readme.find(begin);
  REQUIRE(from != std::string::npos);
  const auto to = readme.find(end, from);
  REQUIRE(to != std::string::npos);
  const std::string script = readme.substr(from + begin.size(), to - from - begin.size());

  const TemporaryDirectory scratch("readme");
  const std::filesystem::path& dir = scratch.path();
  std::ofstream(dir / "settings.sh") << script;
  clawperator::testing::RunOptions options;
  const std::string bin = std::filesystem::path(CLAWPERATOR_BINARY).parent_path().string();
  const std::string vdevice = std::filesystem::path(CLAWPERATOR_VDEVICE_BINARY).parent_path();
  options.extra_env = {{"PATH", bin + ":" + vdevice + ":" + std::getenv("PATH")},
                       {"CLAWPERATOR_STATE_DIR", (dir / "state").string()},
                       {"CLAWPERATOR_LOG_DIR", (dir / "logs").string()},
                       {"ANDROID_SERIAL", ""}};
  const RunResult result = clawperator::testing::run_binary(
      CLAWPERATOR_VDEVICE_BINARY,
      {"with", "--", "sh", "-c", "cd '" + dir.string() + "' && exec sh settings.sh"}, options);
  INFO("stdout: " << result.out.substr(0, 3000) << "\nstderr: " << result.err.substr(0, 3000));
  CHECK(result.exit_code == 0);
  // The last line fails on purpose: its code on stderr, its exit in the echo.
  CHECK(result.out.find("failed: exit 1") != std::string::npos);
  CHECK(result.err.find("clawperator: NODE_NOT_FOUND: ") != std::string::npos);
  CHECK(json::parse(read_file((dir / "screen.json").string()))["ok"] == true);
  CHECK(read_file((dir / "settings.png").string()).rfind("\x89PNG\r\n\x1a\n", 0) == 0);
}
