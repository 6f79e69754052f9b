// A minimal adb that answers instantly, for measuring the host's own cost of an
// exec (bench/run.sh) and for CLI tests of the exec path. It knows just the calls `clawperator
// exec` makes:
//   devices -l · -s S shell "pm list packages …" · -s S logcat … · -s S shell "am broadcast …"
// The broadcast leaves the payload's commandId/taskId in $FAKE_ADB_DIR/dispatched;
// the logcat follower prints the matching result line as soon as it appears.
//
// FAKE_ADB_RESULT_BYTES=N (bench/run.sh, peak RSS of a large result): the result is instead a
// snapshot whose canonical line is N bytes (a UI hierarchy dump, every attribute quote an
// escape), logged as 1024-byte `[Clawperator-Result-Chunk]` records as the Operator does. The
// line is generated on the fly twice (hash, then records), so the fake itself stays small.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "clawperator/transport/sha256.hpp"

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

std::string base64(std::string_view data) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < data.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, data.size() - i);
    std::uint32_t triple = static_cast<std::uint32_t>(static_cast<unsigned char>(data[i])) << 16;
    if (n > 1) triple |= static_cast<std::uint32_t>(static_cast<unsigned char>(data[i + 1])) << 8;
    if (n > 2) triple |= static_cast<std::uint32_t>(static_cast<unsigned char>(data[i + 2]));
    out += kAlphabet[(triple >> 18) & 63];
    out += kAlphabet[(triple >> 12) & 63];
    out += n > 1 ? kAlphabet[(triple >> 6) & 63] : '=';
    out += n > 2 ? kAlphabet[triple & 63] : '=';
  }
  return out;
}

// The canonical line of a snapshot result about `bytes` long: head, `units` copies of one
// escaped <node>, `filler` bytes of text, tail. Any slice of it can be produced without the rest.
class LargeResultLine {
 public:
  LargeResultLine(const std::string& command_id, const std::string& task_id, std::size_t bytes)
      : head_("[Clawperator-Result] {\"commandId\":\"" + command_id + "\",\"taskId\":\"" + task_id +
              "\",\"status\":\"success\",\"stepResults\":[{\"id\":\"snap\",\"actionType\":"
              "\"snapshot\",\"success\":true,\"data\":{\"text\":\"<?xml version='1.0' "
              "encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\\\"0\\\">\\n"),
        unit_(
            "<node index=\\\"3\\\" text=\\\"Wi-Fi \xC2\xB7 R\xC3\xA9seau\\\" "
            "resource-id=\\\"android:id/title\\\" class=\\\"android.widget.TextView\\\" "
            "package=\\\"com.android.settings\\\" content-desc=\\\"\\\" checkable=\\\"false\\\" "
            "checked=\\\"false\\\" clickable=\\\"false\\\" enabled=\\\"true\\\" "
            "focusable=\\\"false\\\" focused=\\\"false\\\" scrollable=\\\"false\\\" "
            "long-clickable=\\\"false\\\" password=\\\"false\\\" selected=\\\"false\\\" "
            "bounds=\\\"[210,1000][460,1090]\\\" />\\n"),
        tail_("</hierarchy>\"}}],\"error\":null}") {
    const std::size_t fixed = head_.size() + tail_.size();
    const std::size_t body = bytes > fixed ? bytes - fixed : 0;
    units_ = body / unit_.size();
    filler_ = body % unit_.size();
  }

  std::size_t size() const { return head_.size() + units_ * unit_.size() + filler_ + tail_.size(); }

  // Appends the bytes [offset, offset + length) of the line.
  void append(std::size_t offset, std::size_t length, std::string& out) const {
    const std::size_t end = std::min(offset + length, size());
    const std::size_t body_start = head_.size();
    const std::size_t filler_start = body_start + units_ * unit_.size();
    const std::size_t tail_start = filler_start + filler_;
    while (offset < end) {
      std::size_t taken = 0;
      if (offset < body_start) {
        taken = std::min(end, body_start) - offset;
        out.append(head_, offset, taken);
      } else if (offset < filler_start) {
        const std::size_t within = (offset - body_start) % unit_.size();
        taken = std::min(unit_.size() - within, end - offset);
        out.append(unit_, within, taken);
      } else if (offset < tail_start) {
        taken = std::min(end, tail_start) - offset;
        out.append(taken, 'x');
      } else {
        taken = end - offset;
        out.append(tail_, offset - tail_start, taken);
      }
      offset += taken;
    }
  }

 private:
  std::string head_, unit_, tail_;
  std::size_t units_ = 0, filler_ = 0;
};

void print_large_result(const std::string& command_id, const std::string& task_id,
                        std::size_t bytes) {
  const LargeResultLine line(command_id, task_id, bytes);
  constexpr std::size_t kSlice = 1024;
  clawperator::transport::Sha256 hasher;
  std::string piece;
  for (std::size_t offset = 0; offset < line.size(); offset += std::size_t{1} << 20) {
    piece.clear();
    line.append(offset, std::size_t{1} << 20, piece);
    hasher.update(piece);
  }
  const std::string digest = hasher.finish_hex();
  const std::size_t count = (line.size() + kSlice - 1) / kSlice;
  for (std::size_t index = 0; index < count; ++index) {
    piece.clear();
    line.append(index * kSlice, kSlice, piece);
    std::printf(
        "11-30 12:00:00.000 I/ClawperatorResult( 4242): [Clawperator-Result-Chunk] "
        "{\"commandId\":\"%s\",\"taskId\":\"%s\",\"index\":%zu,\"count\":%zu,"
        "\"byteLength\":%zu,\"sha256\":\"%s\",\"data\":\"%s\"}\n",
        command_id.c_str(), task_id.c_str(), index, count, line.size(), digest.c_str(),
        base64(piece).c_str());
  }
}

int logcat() {
  static std::array<char, 1 << 16> buffer;
  std::setvbuf(stdout, buffer.data(), _IOFBF, buffer.size());
  std::printf("--------- beginning of main\n");
  std::fflush(stdout);
  const std::string path = state_file();
  const std::string taken = path + ".taken";
  while (true) {
    // Taken by rename before it is read: a broadcast that lands while this one is answered
    // renames a new file into place, which a read-then-unlink would delete unanswered (the
    // execution then waited out its whole budget: a 30 s hang seen once under load).
    if (std::rename(path.c_str(), taken.c_str()) != 0) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      continue;
    }
    std::ifstream in(taken);
    std::string ids;
    if (std::getline(in, ids) && !ids.empty()) {
      const auto tab = ids.find('\t');
      const std::string command_id = ids.substr(0, tab);
      const std::string task_id = ids.substr(tab + 1);
      if (const char* large = std::getenv("FAKE_ADB_RESULT_BYTES"); large != nullptr) {
        print_large_result(command_id, task_id, std::strtoull(large, nullptr, 10));
      } else {
        std::printf(
            "11-30 12:00:00.000 I/Clawperator( 4242): [Clawperator-Result] {\"commandId\":\"%s\","
            "\"taskId\":\"%s\",\"status\":\"success\",\"stepResults\":[{\"id\":\"snap\","
            "\"actionType\":\"snapshot\",\"success\":true,\"data\":{\"text\":\"<hierarchy/>\"}}],"
            "\"error\":null}\n",
            command_id.c_str(), task_id.c_str());
      }
      std::fflush(stdout);
    }
    ::unlink(taken.c_str());
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
