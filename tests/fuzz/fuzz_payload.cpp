// Payload parsing and validation: any bytes end in a verdict, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const clawperator::Json payload = clawperator::parse_json(text);
  if (payload.is_discarded()) return 0;
  auto outcome = clawperator::contract::validate_execution(payload);
  if (outcome.valid) {
    (void)clawperator::contract::check_payload_size(*outcome.valid);
    (void)clawperator::contract::apply_timeout_override(*outcome.valid, text.substr(0, 16));
  } else {
    (void)clawperator::contract::validation_failure(outcome.issues);
  }
  return 0;
}
