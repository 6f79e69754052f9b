#include "clawperator/service/skills.hpp"

#include <utility>

#include "clawperator/process/runner.hpp"
#include "clawperator/skills/registry.hpp"
#include "clawperator/skills/remote_limits.hpp"
#include "clawperator/skills/skill_run.hpp"

namespace clawperator::service {
using contract::failed;
using contract::field_error;

contract::Outcome<SkillRunArguments> read_skill_run(const Json& body) {
  SkillRunArguments options;
  const auto bounded_text = [](const Json& value) {
    return value.is_string() &&
           value.get_ref<const std::string&>().size() <= skills::kMaxRemoteSkillArgBytes &&
           value.get_ref<const std::string&>().find('\0') == std::string::npos;
  };
  if (const auto args = body.find("args"); args != body.end()) {
    if (!args->is_array() || args->size() > skills::kMaxRemoteSkillArgs) {
      return failed(field_error("INVALID_BODY",
                                "args must be an array of at most " +
                                    std::to_string(skills::kMaxRemoteSkillArgs) + " strings",
                                "args"));
    }
    for (std::size_t i = 0; i < args->size(); ++i) {
      if (!bounded_text((*args)[i])) {
        return failed(field_error("INVALID_BODY",
                                  "args." + std::to_string(i) + " must be a string of at most " +
                                      std::to_string(skills::kMaxRemoteSkillArgBytes) +
                                      " bytes, without NUL",
                                  "args." + std::to_string(i)));
      }
      options.args.push_back((*args)[i].get<std::string>());
    }
  }
  if (const auto expect = body.find("expectContains"); expect != body.end()) {
    if (!bounded_text(*expect) || expect->get_ref<const std::string&>().empty()) {
      return failed(field_error("INVALID_BODY",
                                "expectContains must be a non-empty string of at most " +
                                    std::to_string(skills::kMaxRemoteSkillArgBytes) + " bytes",
                                "expectContains"));
    }
    options.expect_contains = expect->get<std::string>();
  }
  if (const auto skip = body.find("skipValidate"); skip != body.end()) {
    if (!skip->is_boolean()) {
      return failed(field_error("INVALID_BODY", "skipValidate must be a boolean", "skipValidate"));
    }
    options.skip_validate = skip->get<bool>();
  }
  if (const auto timeout = body.find("timeoutMs"); timeout != body.end()) {
    if (!timeout->is_number_integer() || timeout->get<long long>() < 1 ||
        timeout->get<long long>() > skills::kMaxRemoteSkillTimeoutMs) {
      return failed(field_error("INVALID_BODY",
                                "timeoutMs must be an integer from 1 to " +
                                    std::to_string(skills::kMaxRemoteSkillTimeoutMs),
                                "timeoutMs"));
    }
    options.timeout_ms = timeout->get<long long>();
  }
  return options;
}

long skill_run_lock_wait_ms(const SkillRunArguments& arguments) {
  return static_cast<long>(arguments.timeout_ms.value_or(skills::kDefaultSkillTimeout.count()));
}

namespace {

contract::Outcome<skills::Registry> registry_of(const Session& session) {
  return skills::load_registry(
      skills::locate_registry(skills::process_registry_lookup(session.skills_registry)));
}

}  // namespace

contract::Outcome<Json> skills_list(const Session& session, const skills::SearchFilter& filter) {
  CLAWPERATOR_TRY_ASSIGN(const auto registry, registry_of(session));
  return skills::search_document(registry, filter);
}

contract::Outcome<Json> skills_get(const Session& session, const std::string& skill_id) {
  CLAWPERATOR_TRY_ASSIGN(const auto registry, registry_of(session));
  return skills::get_document(registry, skill_id);
}

void name_script_output_for_remote(Json& document) {
  for (const auto& [from, to] :
       {std::pair{"stdout", "output"}, std::pair{"stderr", "errorOutput"}}) {
    if (const auto it = document.find(from); it != document.end()) {
      // On success `output` is already there, as the alias of `stdout`.
      if (!document.contains(to)) document[to] = std::move(*it);
      document.erase(from);
    }
  }
}

skills::SkillRunReport run_skill(const Session& session, const SkillRun& run,
                                 const process::CancelToken& cancel) {
  const auto report_of = [](const contract::HostError& error) {
    return skills::SkillRunReport{contract::to_json(error), contract::exit_code_of(error)};
  };
  const auto registry = registry_of(session);
  if (!registry) return report_of(registry.error());
  skills::SkillRunRequest request;
  request.skill_id = run.skill_id;
  request.script_args = run.arguments.args;
  request.expect_contains = run.arguments.expect_contains;
  request.skip_validate = run.arguments.skip_validate;
  if (run.arguments.timeout_ms)
    request.timeout = std::chrono::milliseconds(*run.arguments.timeout_ms);
  request.on_output = run.on_output;
  const DeviceChoice chosen = choose_device(session, run.target);
  request.device.device = chosen.device;
  request.device.operator_package = chosen.operator_package;
  request.device.adb = session.adb;
  request.device.lock_wait_ms =
      session.lock_wait_ms.value_or(skill_run_lock_wait_ms(run.arguments));
  request.device.state = session.state;
  request.device.lock_token = session.lock_token;
  request.guard = session.script_guard;
  const auto runner = process::make_system_runner(cancel);
  return skills::run_skill(*registry, request, *runner);
}

}  // namespace clawperator::service
