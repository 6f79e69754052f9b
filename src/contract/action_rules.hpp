// The rules across params that the action table's rows name (action_table.cpp). Each reports
// every problem it finds, in the original CLI's wording (docs/payload.md "Rules per action").
#pragma once

#include "clawperator/contract/action_table.hpp"

namespace clawperator::contract::rules {

// Exactly one of matcher and coordinate; no clickType "focus", strict or container with a
// coordinate.
void click(RuleContext& context);
// swipe, drag: start and end must be different points.
void distinct_endpoints(RuleContext& context);
// clickAfter: true needs a matcher.
void scroll_until(RuleContext& context);
// validator "regex" needs a non-blank validatorPattern that compiles.
void read_text(RuleContext& context);
// expectedPackage or expectedNode.
void wait_for_navigation(RuleContext& context);
// Exactly one of applicationId and mediaSessionId (the media actions but the lists).
void media_target(RuleContext& context);
// Exactly one of text and template.
void set_on_screen_log(RuleContext& context);

}  // namespace clawperator::contract::rules
