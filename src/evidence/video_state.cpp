#include "video_state.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

#include "clawperator/adb/server_endpoint.hpp"
#include "clawperator/io/atomic_file.hpp"
#include "clawperator/io/utc_time.hpp"

namespace clawperator::evidence::video {
namespace {

constexpr std::size_t kMaxStateFileBytes = 64 * 1024;

std::optional<std::string> read_state_file(const io::StateDirectory& state, std::string_view name) {
  auto opened = state.open_file(name, O_RDONLY);
  if (!opened) return std::nullopt;
  std::string bytes;
  char buffer[8192];
  for (;;) {
    const ssize_t n = ::read(opened->fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || bytes.size() + static_cast<std::size_t>(n) > kMaxStateFileBytes) {
      if (n != 0) bytes.clear();
      break;
    }
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(opened->fd);
  return bytes;
}

Json to_json(const LockOwner& owner) {
  return {{"sessionId", owner.session_id},
          {"ownerPid", owner.pid},
          {"ownerStartTicks", owner.start_ticks},
          {"serial", owner.serial},
          {"createdAt", owner.created_at}};
}

std::optional<LockOwner> owner_from_text(std::string_view text) {
  const Json json = parse_json(text);
  if (!json.is_object() || !json.value("sessionId", Json()).is_string() ||
      !json.value("ownerPid", Json()).is_number_integer() ||
      !json.value("ownerStartTicks", Json()).is_number_unsigned()) {
    return std::nullopt;
  }
  LockOwner owner;
  owner.session_id = json["sessionId"].get<std::string>();
  owner.pid = json["ownerPid"].get<pid_t>();
  owner.start_ticks = json["ownerStartTicks"].get<unsigned long long>();
  owner.serial = json.value("serial", "");
  owner.created_at = json.value("createdAt", "");
  return owner;
}

// The lock name of a session started before the record kept it (lock_name before it was
// keyed by adb::device_key): the --adb-server flag's host and port, and the serial, so that
// such a session is still stopped or recovered by its own lock.
std::string legacy_lock_name(const adb::AdbSettings& adb, std::string_view serial) {
  std::string server = adb.server_host.value_or("") + ":" +
                       (adb.server_port ? std::to_string(*adb.server_port) : std::string());
  return "evidence-video-lock-" + io::escape_file_name(server + "-" + std::string(serial)) +
         ".json";
}

}  // namespace

std::string record_name(std::string_view session_id) {
  return std::string(kRecordPrefix) + io::escape_file_name(session_id) + ".json";
}

std::string log_name(std::string_view session_id) {
  return std::string(kRecordPrefix) + io::escape_file_name(session_id) + ".log";
}

void remove_old_records(const io::StateDirectory& state) {
  state.remove_stale(kRecordPrefix, ".json", kRecordLifetime);
  state.remove_stale(kRecordPrefix, ".log", kRecordLifetime);
}

std::string lock_name(const adb::AdbSettings& adb, std::string_view serial) {
  return "evidence-video-lock-" + adb::device_key(adb, serial) + ".json";
}

bool write_record(const io::StateDirectory& state, const SessionRecord& record) {
  Json adb = {{"executable", record.adb.executable}};
  adb["serverHost"] = record.adb.server_host ? Json(*record.adb.server_host) : Json(nullptr);
  adb["serverPort"] = record.adb.server_port ? Json(*record.adb.server_port) : Json(nullptr);
  const Json json = {{"sessionId", record.session_id},
                     {"serial", record.serial},
                     {"bundleDir", record.bundle_dir},
                     {"recorder", record.recorder},
                     {"durationSeconds", record.duration_seconds},
                     {"size", record.size ? Json(*record.size) : Json(nullptr)},
                     {"label", record.label ? Json(*record.label) : Json(nullptr)},
                     {"context", record.context},
                     {"operatorPackage", record.operator_package},
                     {"adb", adb},
                     {"createdAt", record.created_at},
                     {"lockName", record.lock}};
  return state.replace_file(record_name(record.session_id), dump_json(json) + "\n");
}

std::optional<SessionRecord> read_record(const io::StateDirectory& state,
                                         std::string_view session_id) {
  const auto text = read_state_file(state, record_name(session_id));
  if (!text) return std::nullopt;
  const Json json = parse_json(*text);
  if (!json.is_object() || json.value("sessionId", "") != session_id ||
      !json.value("bundleDir", Json()).is_string() || !json.value("serial", Json()).is_string() ||
      !json.value("durationSeconds", Json()).is_number_integer() ||
      !json.value("adb", Json()).is_object()) {
    return std::nullopt;
  }
  SessionRecord record;
  record.session_id = std::string(session_id);
  record.serial = json["serial"].get<std::string>();
  record.bundle_dir = json["bundleDir"].get<std::string>();
  record.recorder = json.value("recorder", "screenrecord");
  record.duration_seconds = json["durationSeconds"].get<int>();
  // find, never a const operator[]: a member a record lacks (an older version's, a damaged
  // file) is absent, not undefined behaviour.
  if (const auto size = json.find("size"); size != json.end() && size->is_string()) {
    record.size = size->get<std::string>();
  }
  if (const auto label = json.find("label"); label != json.end() && label->is_string()) {
    record.label = label->get<std::string>();
  }
  if (const auto context = json.find("context"); context != json.end() && context->is_object()) {
    record.context = *context;
  }
  record.operator_package = json.value("operatorPackage", "");
  const Json& adb = json["adb"];
  record.adb.executable = adb.value("executable", "adb");
  if (adb.value("serverHost", Json()).is_string()) {
    record.adb.server_host = adb["serverHost"].get<std::string>();
  }
  if (adb.value("serverPort", Json()).is_number_integer()) {
    record.adb.server_port = adb["serverPort"].get<int>();
  }
  record.created_at = json.value("createdAt", "");
  if (json.value("lockName", Json()).is_string()) {
    record.lock = json["lockName"].get<std::string>();
  } else {
    record.lock = legacy_lock_name(record.adb, record.serial);
  }
  return record;
}

std::optional<unsigned long long> process_start_ticks(pid_t pid) {
  if (pid <= 0) return std::nullopt;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return std::nullopt;
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  const std::size_t name_end = line.rfind(')');
  if (name_end == std::string::npos) return std::nullopt;
  std::size_t at = name_end + 2;
  // Field 3 (state) starts at `at`; field 22 is 19 fields further.
  for (int field = 3; field < 22; ++field) {
    at = line.find(' ', at);
    if (at == std::string::npos) return std::nullopt;
    ++at;
  }
  // A zombie is gone for our purposes: it records nothing any more.
  if (line.size() > name_end + 2 && line[name_end + 2] == 'Z') return std::nullopt;
  try {
    return std::stoull(line.substr(at, line.find(' ', at) - at));
  } catch (...) {
    return std::nullopt;
  }
}

bool owner_alive(const LockOwner& owner) {
  const auto ticks = process_start_ticks(owner.pid);
  return ticks && *ticks == owner.start_ticks;
}

LockOwner self_owner(std::string session_id, std::string serial) {
  LockOwner owner;
  owner.session_id = std::move(session_id);
  owner.pid = ::getpid();
  owner.start_ticks = process_start_ticks(owner.pid).value_or(0);
  owner.serial = std::move(serial);
  owner.created_at = io::utc_timestamp(std::chrono::system_clock::now());
  return owner;
}

LockResult create_lock(const io::StateDirectory& state, const std::string& name,
                       const LockOwner& owner, std::optional<LockOwner>& found) {
  if (state.create_file(name, dump_json(to_json(owner)) + "\n")) return LockResult::Acquired;
  auto existing = state.open_file(name, O_RDONLY);
  if (!existing) return LockResult::Failed;
  ::close(existing->fd);
  found = read_lock(state, name);
  return found ? LockResult::Held : LockResult::Unreadable;
}

std::optional<LockOwner> read_lock(const io::StateDirectory& state, const std::string& name) {
  const auto text = read_state_file(state, name);
  if (!text) return std::nullopt;
  return owner_from_text(*text);
}

bool take_over_lock(const io::StateDirectory& state, const std::string& name,
                    const LockOwner& owner, pid_t from) {
  const auto current = read_lock(state, name);
  if (!current || current->session_id != owner.session_id || current->pid != from) return false;
  return state.replace_file(name, dump_json(to_json(owner)) + "\n");
}

void release_lock(const io::StateDirectory& state, const std::string& name,
                  std::string_view session_id) {
  const auto current = read_lock(state, name);
  if (current && current->session_id == session_id) state.remove(name);
}

Manifest initial_manifest(const SessionRecord& record) {
  Manifest manifest;
  manifest.evidence_id = record.session_id;
  manifest.label = record.label;
  manifest.context = record.context;
  manifest.device.serial = record.serial;
  manifest.device.operator_package = record.operator_package;
  manifest.device.cli_version = CLAWPERATOR_VERSION;
  manifest.started_at = record.created_at;
  manifest.status = "starting";
  manifest.video = Json{{"sessionId", record.session_id},
                        {"recorder", record.recorder},
                        {"requestedDurationSeconds", record.duration_seconds},
                        {"size", record.size ? Json(*record.size) : Json(nullptr)}};
  return manifest;
}

bool is_session_id(std::string_view text) {
  if (text.size() != 36) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (c != '-') return false;
    } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
      return false;
    }
  }
  return true;
}

}  // namespace clawperator::evidence::video
