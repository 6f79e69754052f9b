#include "vdevice/adb/shell_protocol.hpp"

#include "vdevice/buffer_compaction.hpp"

namespace clawperator::vdevice::adb {

void append_shell_packet(std::string& out, std::uint8_t id, std::string_view payload) {
  out.reserve(out.size() + kShellHeaderSize + payload.size());
  out.push_back(static_cast<char>(id));
  const auto length = static_cast<std::uint32_t>(payload.size());
  for (int shift = 0; shift < 32; shift += 8) {
    out.push_back(static_cast<char>((length >> shift) & 0xffU));
  }
  out.append(payload);
}

void ShellPacketDecoder::feed(std::string_view bytes) {
  if (error_) return;
  if (head_ > 0 && (head_ == buffer_.size() || head_ >= kCompactThreshold)) {
    buffer_.erase(0, head_);
    head_ = 0;
  }
  buffer_.append(bytes);
}

std::optional<ShellPacket> ShellPacketDecoder::next() {
  if (error_) return std::nullopt;
  const std::string_view pending = std::string_view(buffer_).substr(head_);
  if (pending.size() < kShellHeaderSize) return std::nullopt;
  std::uint32_t length = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    length |= static_cast<std::uint32_t>(static_cast<unsigned char>(pending[1 + i])) << (8 * i);
  }
  if (length > max_packet_) {
    error_ = true;
    return std::nullopt;
  }
  if (pending.size() - kShellHeaderSize < length) return std::nullopt;
  ShellPacket packet;
  packet.id = static_cast<std::uint8_t>(pending[0]);
  packet.payload.assign(pending.substr(kShellHeaderSize, length));
  head_ += kShellHeaderSize + length;
  return packet;
}

ServiceRequest parse_service(std::string_view service) {
  ServiceRequest request;
  constexpr std::string_view kExec = "exec:";
  constexpr std::string_view kShell = "shell";
  constexpr std::string_view kLocalAbstract = "localabstract:";
  if (service.starts_with(kExec)) {
    request.kind = ServiceKind::Exec;
    request.command.assign(service.substr(kExec.size()));
    return request;
  }
  if (service == "sync:") {
    request.kind = ServiceKind::Sync;
    return request;
  }
  if (service.starts_with(kLocalAbstract) && service.size() > kLocalAbstract.size()) {
    request.kind = ServiceKind::LocalAbstract;
    request.command.assign(service.substr(kLocalAbstract.size()));
    return request;
  }
  if (!service.starts_with(kShell)) return request;
  std::string_view rest = service.substr(kShell.size());
  if (rest.empty() || (rest.front() != ':' && rest.front() != ',')) return request;
  // Options never contain ':' (TERM=xterm, v2, raw, pty), so the first one ends them and
  // the command keeps any later ':' untouched.
  const std::size_t colon = rest.find(':');
  if (colon == std::string_view::npos) return request;
  std::string_view options = rest.substr(0, colon);
  request.kind = ServiceKind::ShellRaw;
  while (!options.empty()) {
    if (options.front() == ',') {
      options.remove_prefix(1);
      continue;
    }
    const std::size_t comma = options.find(',');
    const std::string_view option = options.substr(0, comma);
    if (option == "v2") request.kind = ServiceKind::ShellV2;
    if (option == "pty") request.pty = true;
    if (option == "raw") request.pty = false;
    if (comma == std::string_view::npos) break;
    options.remove_prefix(comma);
  }
  request.command.assign(rest.substr(colon + 1));
  return request;
}

}  // namespace clawperator::vdevice::adb
