// A minimal adb that answers instantly, for measuring the host's own cost of an
// exec (bench/run.sh) and for CLI tests of the exec path. It knows just the calls `clawperator
// exec` makes:
//   devices -l · -s S shell "pm list packages …" · -s S logcat … · -s S shell "am broadcast …"
// The broadcast leaves the payload's commandId/taskId in $FAKE_ADB_DIR/dispatched;
// the logcat follower prints the matching result line as soon as it appears.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

std::string state_file() {
  const char* dir = std::getenv("FAKE_ADB_DIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/dispatched";
}

// The JSON string value after "key":" in text (no escapes in our ids).
std::string field(const std::string& text, const std::string& key) {
  const std::string marker = "\"" + key + "\":\"";
  const auto start = text.find(marker);
  if (start == std::string::npos) return {};
  const auto end = text.find('"', start + marker.size());
  return text.substr(start + marker.size(), end - start - marker.size());
}

int logcat() {
  std::printf("--------- beginning of main\n");
  std::fflush(stdout);
  const std::string path = state_file();
  while (true) {
    std::ifstream in(path);
    std::string ids;
    if (std::getline(in, ids) && !ids.empty()) {
      const auto tab = ids.find('\t');
      const std::string command_id = ids.substr(0, tab);
      const std::string task_id = ids.substr(tab + 1);
      std::printf(
          "11-30 12:00:00.000 I/Clawperator( 4242): [Clawperator-Result] {\"commandId\":\"%s\","
          "\"taskId\":\"%s\",\"status\":\"success\",\"stepResults\":[{\"id\":\"snap\","
          "\"actionType\":\"snapshot\",\"success\":true,\"data\":{\"text\":\"<hierarchy/>\"}}],"
          "\"error\":null}\n",
          command_id.c_str(), task_id.c_str());
      std::fflush(stdout);
      ::unlink(path.c_str());
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() >= 2 && args[0] == "devices") {
    std::printf(
        "List of devices attached\nfake-1                 device product:fake "
        "model:Fake device:fake transport_id:1\n\n");
    return 0;
  }
  if (args.size() >= 3 && args[0] == "-s") {
    if (args[2] == "logcat") return logcat();
    if (args[2] == "shell" && args.size() >= 4) {
      const std::string& command = args[3];
      if (command.rfind("pm list packages", 0) == 0) {
        std::printf("package:com.clawperator.operator\nclawperator-exit:0\n");
        return 0;
      }
      if (command.rfind("am broadcast", 0) == 0) {
        std::ofstream(state_file() + ".tmp")
            << field(command, "commandId") << '\t' << field(command, "taskId") << '\n';
        std::rename((state_file() + ".tmp").c_str(), state_file().c_str());
        std::printf(
            "Broadcasting: Intent { act=app.clawperator.operator.ACTION_AGENT_COMMAND "
            "flg=0x400000 pkg=com.clawperator.operator (has extras) }\n"
            "Broadcast completed: result=0\n");
        return 0;
      }
      std::printf("clawperator-exit:0\n");
      return 0;
    }
  }
  std::fprintf(stderr, "fake adb: unsupported call\n");
  return 1;
}
