#include "vdevice/android/shell/shell_session.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <string_view>
#include <utility>

#include "vdevice/android/shell/shell_command.hpp"
#include "vdevice/android/shell/shell_parser.hpp"

namespace clawperator::vdevice::android {
namespace {

bool valid_name(std::string_view name) {
  if (name.empty() || (std::isalpha(static_cast<unsigned char>(name[0])) == 0 && name[0] != '_')) {
    return false;
  }
  for (const char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return false;
  }
  return true;
}

// What the commands of a $(…) read: nothing, ever.
class NoInput : public CommandInput {
 public:
  std::string read_input(std::size_t) override { return {}; }
  bool input_ended() const override { return true; }
};

// Where the commands of a $(…) write: stdout is kept, stderr goes to the shell's.
class Capture : public CommandOutput {
 public:
  Capture(CommandOutput& shell, std::string& out) : shell_(shell), out_(out) {}
  void out(std::string_view bytes) override { out_.append(bytes); }
  void err(std::string_view bytes) override { shell_.err(bytes); }

 private:
  CommandOutput& shell_;
  std::string& out_;
};

// Stdin that no command has read yet waits here, up to the largest WRTE; beyond that it is
// dropped where a real adbd would stop acknowledging. Only `pm install` reads stdin, and it
// takes the bytes as they come.
constexpr std::size_t kMaxUnreadInput = std::size_t{1} << 20;

class ShellRun : public CommandOutput,
                 public CommandInput,
                 public std::enable_shared_from_this<ShellRun> {
 public:
  ShellRun(std::weak_ptr<AndroidSystem> system, ServiceOutput& out, bool interactive, int pid,
           std::string prompt)
      : system_(std::move(system)),
        out_(&out),
        interactive_(interactive),
        prompt_(std::move(prompt)) {
    vars_.pid = pid;
  }

  void start(const std::string& command) {
    if (interactive_) {
      out(prompt_);
      return;
    }
    run_script(command);
  }

  void input(std::string_view bytes) {
    if (!interactive_) {
      if (closed_ || input_ended_) return;
      unread_input_.append(
          bytes.substr(0, kMaxUnreadInput - std::min(kMaxUnreadInput, unread_input_.size())));
      notify_input();
      return;
    }
    for (const char c : bytes) {
      if (closed_) return;
      const bool after_cr = last_was_cr_;
      last_was_cr_ = c == '\r';
      if (running_) {
        if (c == '\x03') interrupt();
        continue;
      }
      if (c == '\r' || c == '\n') {
        if (c == '\n' && after_cr) continue;
        echo("\r\n");
        std::string line = std::move(line_);
        line_.clear();
        run_script(line);
      } else if (c == '\x7f' || c == '\b') {
        if (line_.empty()) continue;
        while (!line_.empty() && (static_cast<unsigned char>(line_.back()) & 0xC0) == 0x80) {
          line_.pop_back();
        }
        if (!line_.empty()) line_.pop_back();
        echo("\b \b");
      } else if (c == '\x04' && line_.empty()) {
        end(vars_.last_status);
      } else if (c == '\x03') {
        line_.clear();
        echo("^C\r\n");
        out(prompt_);
      } else {
        line_ += c;
        echo(std::string_view(&c, 1));
      }
    }
  }

  // The host will send no more stdin (shell v2 close-stdin).
  void end_input() {
    if (input_ended_) return;
    input_ended_ = true;
    notify_input();
  }

  std::string read_input(std::size_t max) override {
    const std::size_t count = std::min(max, unread_input_.size());
    std::string bytes = unread_input_.substr(0, count);
    unread_input_.erase(0, count);
    return bytes;
  }

  bool input_ended() const override { return input_ended_; }

  // Lets go of the running command; it stops writing even if a timer still holds it, and
  // `kill` no longer finds its pid.
  void release_running() {
    if (!running_) return;
    if (const auto system = system_.lock()) system->processes().remove(running_pid_);
    // Reset first: stopping may end things that look at running_.
    const std::shared_ptr<RunningCommand> running = std::move(running_);
    running_.reset();
    running->stop();
  }

  // Ends the stream now, whatever runs.
  void abort(int status) { end(status); }

  // The host closed the stream: nothing may be written any more.
  void close() {
    closed_ = true;
    release_running();
  }

  void out(std::string_view bytes) override {
    if (closed_ || bytes.empty()) return;
    if (!interactive_) {
      out_->write_stdout(bytes);
      return;
    }
    out_->write_stdout(with_crlf(bytes));
  }

  void err(std::string_view bytes) override {
    if (closed_ || bytes.empty()) return;
    if (!interactive_) {
      out_->write_stderr(bytes);
      return;
    }
    out_->write_stderr(with_crlf(bytes));
  }

 private:
  // A pty turns "\n" into "\r\n".
  static std::string with_crlf(std::string_view bytes) {
    std::string converted;
    for (const char c : bytes) {
      if (c == '\n') converted += '\r';
      converted += c;
    }
    return converted;
  }

  void notify_input() {
    // A local reference: the command may finish, and be released, while it reads.
    if (const std::shared_ptr<RunningCommand> running = running_) running->input_changed();
  }

  void echo(std::string_view bytes) {
    if (!closed_) out_->write_stdout(bytes);
  }

  void interrupt() {
    // A command that catches SIGINT (screenrecord) finishes in its own time and reports.
    if (running_ && running_->on_signal(kSignalInterrupt)) {
      echo("^C\r\n");
      return;
    }
    release_running();
    vars_.last_status = 130;
    echo("^C\r\n");
    if (exec_pending_) {
      end(130);
      return;
    }
    script_ = Script{};
    after_script();
  }

  void run_script(const std::string& text) {
    auto parsed = parse_script(text);
    next_ = 0;
    if (!parsed) {
      script_ = Script{};
      err(parsed.error().message + "\n");
      vars_.last_status = parsed.error().status;
      after_script();
      return;
    }
    script_ = std::move(*parsed);
    resume();
  }

  void resume() {
    while (!closed_ && !running_ && next_ < script_.commands.size()) {
      const ScriptCommand& command = script_.commands[next_++];
      if (command.connector == Connector::And && vars_.last_status != 0) continue;
      if (command.connector == Connector::Or && vars_.last_status == 0) continue;
      execute(command);
      if (exit_status_) {
        end(*exit_status_);
        return;
      }
    }
    if (closed_ || running_) return;
    after_script();
  }

  void after_script() {
    if (closed_) return;
    if (interactive_) {
      out(prompt_);
      return;
    }
    end(vars_.last_status);
  }

  void end(int status) {
    if (closed_) return;
    closed_ = true;
    release_running();
    out_->exit(status);
  }

  void command_finished(int status) {
    if (closed_ || !running_) return;
    release_running();
    vars_.last_status = status;
    if (exec_pending_) {
      end(status);
      return;
    }
    resume();
  }

  std::function<void(int)> finisher() {
    std::weak_ptr<ShellRun> weak = weak_from_this();
    std::weak_ptr<AndroidSystem> weak_system = system_;
    return [weak, weak_system](int status) {
      auto system = weak_system.lock();
      if (!system) return;
      system->events().after(std::chrono::milliseconds(0), [weak, status] {
        if (auto run = weak.lock()) run->command_finished(status);
      });
    };
  }

  // How `kill` (from any session of the device) reaches the command running as `pid`: on the
  // event loop, as a signal arrives asynchronously, never inside the killing command.
  ProcessTable::SignalDelivery signal_delivery(int pid) {
    std::weak_ptr<ShellRun> weak = weak_from_this();
    std::weak_ptr<AndroidSystem> weak_system = system_;
    return [weak, weak_system, pid](int signal) {
      auto system = weak_system.lock();
      if (!system) return;
      system->events().after(std::chrono::milliseconds(0), [weak, pid, signal] {
        if (auto run = weak.lock()) run->deliver_signal(pid, signal);
      });
    };
  }

  void deliver_signal(int pid, int signal) {
    if (closed_ || !running_ || running_pid_ != pid) return;
    if (running_->on_signal(signal)) return;
    // Uncaught: the command is gone, and the shell sees 128 + signal (adbd reports the same
    // for a process a signal ended).
    command_finished(128 + signal);
  }

  CommandSubstitution substituter() {
    return [this](const std::string& script) { return substitute(script); };
  }

  // $(…): runs the script's commands to completion, one after the other, and returns what
  // they printed; their stderr is the shell's. Only commands, no builtins: what scripts put
  // there is `cat FILE` and the like. A command that would keep running (a following logcat)
  // cannot be waited for inside a word and is refused.
  std::string substitute(const std::string& text) {
    std::string captured;
    const auto system = system_.lock();
    if (!system) return captured;
    auto parsed = parse_script(text);
    if (!parsed) {
      err(parsed.error().message + "\n");
      vars_.last_status = parsed.error().status;
      return captured;
    }
    Capture capture(*this, captured);
    int status = 0;
    for (const ScriptCommand& command : parsed->commands) {
      if (command.connector == Connector::And && status != 0) continue;
      if (command.connector == Connector::Or && status == 0) continue;
      status = run_substituted(*system, command, capture);
    }
    vars_.last_status = status;
    return captured;
  }

  int run_substituted(AndroidSystem& system, const ScriptCommand& command, CommandOutput& output) {
    std::map<std::string, std::string> environment = vars_.values;
    std::size_t first = 0;
    for (; first < command.words.size(); ++first) {
      auto assignment = as_assignment(command.words[first], vars_, substituter());
      if (!assignment) break;
      environment[assignment->name] = assignment->value;
    }
    const std::vector<Word> words(command.words.begin() + static_cast<std::ptrdiff_t>(first),
                                  command.words.end());
    std::vector<std::string> argv = expand_words(words, vars_, substituter());
    if (argv.empty()) return 0;
    const CommandHandler handler = find_command(argv[0]);
    if (handler == nullptr) {
      err("/system/bin/sh: " + argv[0] + ": not found\n");
      return 127;
    }
    NoInput input;
    CommandContext context{system, argv, environment, output, [](int) {}, input};
    CommandResult result;
    try {
      result = handler(context);
    } catch (const std::exception& error) {
      err(argv[0] + ": " + error.what() + "\n");
      return 1;
    }
    if (result.running) {
      result.running->stop();
      err("/system/bin/sh: " + argv[0] +
          ": a command that keeps running is not supported inside $(...) by the virtual "
          "device\n");
      return 2;
    }
    return result.status;
  }

  // Builtins: what sh itself does, not a program.
  bool builtin(const std::vector<std::string>& argv) {
    const std::string& name = argv[0];
    if (name == "export" || name == "unset") {
      vars_.last_status = 0;
      for (std::size_t i = 1; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        const std::size_t equals = arg.find('=');
        const std::string variable = arg.substr(0, equals);
        if (!valid_name(variable)) {
          err("/system/bin/sh: " + name + ": " + variable + ": is not an identifier\n");
          vars_.last_status = 1;
          continue;
        }
        if (name == "unset") {
          vars_.values.erase(variable);
        } else if (equals != std::string::npos) {
          vars_.values[variable] = arg.substr(equals + 1);
        }
      }
      return true;
    }
    if (name == "exit") {
      int status = vars_.last_status;
      if (argv.size() > 1) status = std::atoi(argv[1].c_str());
      exit_status_ = status & 0xFF;
      return true;
    }
    if (name == "kill") {
      // mksh's builtin, which `kill` in an adb shell is (/system/bin/kill is toybox's).
      const auto system = system_.lock();
      vars_.last_status = system ? run_kill_builtin(system->processes(), argv, *this) : 1;
      return true;
    }
    if (name == ":" || name == "cd") {
      vars_.last_status = 0;
      return true;
    }
    return false;
  }

  void execute(const ScriptCommand& command) {
    auto system = system_.lock();
    if (!system) {
      close();  // the device is gone, and the transport with it
      return;
    }
    std::size_t first = 0;
    std::vector<Assignment> assignments;
    while (first < command.words.size()) {
      auto assignment = as_assignment(command.words[first], vars_, substituter());
      if (!assignment) break;
      assignments.push_back(std::move(*assignment));
      ++first;
    }
    const std::vector<Word> words(command.words.begin() + static_cast<std::ptrdiff_t>(first),
                                  command.words.end());
    std::vector<std::string> argv = expand_words(words, vars_, substituter());
    if (argv.empty()) {
      for (const Assignment& assignment : assignments) {
        vars_.values[assignment.name] = assignment.value;
      }
      vars_.last_status = 0;
      return;
    }
    bool exec = false;
    if (argv[0] == "exec") {
      argv.erase(argv.begin());
      exec = true;
      if (argv.empty()) {
        vars_.last_status = 0;
        return;
      }
    }
    if (builtin(argv)) {
      if (exec && !exit_status_) exit_status_ = vars_.last_status;
      return;
    }
    std::map<std::string, std::string> environment = vars_.values;
    for (const Assignment& assignment : assignments) {
      environment[assignment.name] = assignment.value;
    }
    const CommandHandler handler = find_command(argv[0]);
    CommandResult result;
    int pid = 0;
    if (handler == nullptr) {
      err("/system/bin/sh: " + argv[0] + ": not found\n");
      result.status = 127;
    } else {
      // A process of its own, unless it replaces the shell.
      pid = exec ? vars_.pid : system->next_shell_pid();
      CommandContext context{*system, argv, environment, *this, finisher(), *this, pid};
      try {
        result = handler(context);
      } catch (const std::exception& error) {
        err(argv[0] + ": " + error.what() + "\n");
        result = CommandResult{1, nullptr};
      }
    }
    if (result.running) {
      running_ = std::move(result.running);
      running_pid_ = pid;
      exec_pending_ = exec;
      system->processes().add(pid, running_, signal_delivery(pid));
      return;
    }
    vars_.last_status = result.status;
    if (exec) exit_status_ = result.status;
  }

  std::weak_ptr<AndroidSystem> system_;
  ServiceOutput* out_;
  bool interactive_;
  std::string prompt_;
  Script script_;
  std::size_t next_ = 0;
  ShellVariables vars_;
  std::shared_ptr<RunningCommand> running_;
  int running_pid_ = 0;
  bool exec_pending_ = false;
  std::optional<int> exit_status_;
  bool closed_ = false;
  std::string line_;
  bool last_was_cr_ = false;
  std::string unread_input_;
  bool input_ended_ = false;
};

class ShellSession : public ServiceSession {
 public:
  explicit ShellSession(std::shared_ptr<ShellRun> run) : run_(std::move(run)) {}
  ~ShellSession() override { run_->close(); }
  ShellSession(const ShellSession&) = delete;
  ShellSession& operator=(const ShellSession&) = delete;

  // A local reference: ending the stream may make the transport destroy this session.
  void on_input(std::string_view bytes) override {
    const std::shared_ptr<ShellRun> run = run_;
    try {
      run->input(bytes);
    } catch (const std::exception&) {
      run->abort(255);
    }
  }
  void on_input_closed() override {
    const std::shared_ptr<ShellRun> run = run_;
    try {
      run->end_input();
    } catch (const std::exception&) {
      run->abort(255);
    }
  }
  void on_host_close() override {
    const std::shared_ptr<ShellRun> run = run_;
    run->close();
  }

 private:
  std::shared_ptr<ShellRun> run_;
};

}  // namespace

std::unique_ptr<ServiceSession> start_shell_session(const std::shared_ptr<AndroidSystem>& system,
                                                    const std::string& command,
                                                    ServiceOutput& out) {
  const bool interactive = command.find_first_not_of(" \t") == std::string::npos;
  const std::string prompt = system->property("ro.product.device").value_or("android") + ":/ $ ";
  auto run = std::make_shared<ShellRun>(system, out, interactive, system->next_shell_pid(), prompt);
  auto session = std::make_unique<ShellSession>(run);
  try {
    run->start(command);
  } catch (const std::exception&) {
    // Allocation failure or similar: end the stream rather than let it escape.
    run->abort(255);
  }
  return session;
}

}  // namespace clawperator::vdevice::android
