#include "clawperator/contract/matcher_fields.hpp"

#include <array>

#include "clawperator/contract/matcher_text.hpp"

namespace clawperator::contract {
namespace {

constexpr std::string_view kResourceIdAliases[] = {"resource_id", "id"};
constexpr std::string_view kTextEqualsAliases[] = {"text"};
constexpr std::string_view kTextContainsAliases[] = {"text_contains"};
constexpr std::string_view kContentDescEqualsAliases[] = {"content_desc", "content_desc_equals",
                                                          "description", "accessibility_label"};
constexpr std::string_view kContentDescContainsAliases[] = {
    "content_desc_contains", "description_contains", "accessibility_label_contains"};

constexpr std::array<MatcherFieldRow, 6> kRows = {{
    {MatcherField::ResourceId, "resourceId", "resource-id", FieldComparison::Exact, "--id",
     "--container-id", "<resource-id>", "Android resource ID", "Container by Android resource ID",
     "id", "resource id (resourceId)", kResourceIdAliases},
    {MatcherField::Role,
     "role",
     "class",
     FieldComparison::Role,
     "--role",
     "--container-role",
     "<role>",
     "Element role",
     "Container by element role",
     "role",
     "role",
     {}},
    {MatcherField::TextEquals, "textEquals", "text", FieldComparison::Exact, "--text",
     "--container-text", "<text>", "Exact visible text", "Container with exact visible text",
     "text", "exact text (textEquals)", kTextEqualsAliases},
    {MatcherField::TextContains, "textContains", "text", FieldComparison::ContainsIgnoringCase,
     "--text-contains", "--container-text-contains", "<text>", "Partial text match",
     "Container with partial text match", "textContains", "text contains (textContains)",
     kTextContainsAliases},
    {MatcherField::ContentDescEquals, "contentDescEquals", "content-desc", FieldComparison::Exact,
     "--desc", "--container-desc", "<text>", "Exact content description",
     "Container by exact content description", "desc",
     "exact content description (contentDescEquals)", kContentDescEqualsAliases},
    {MatcherField::ContentDescContains, "contentDescContains", "content-desc",
     FieldComparison::ContainsIgnoringCase, "--desc-contains", "--container-desc-contains",
     "<text>", "Partial content description", "Container by partial content description",
     "descContains", "content description contains (contentDescContains)",
     kContentDescContainsAliases},
}};

constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < kRows.size(); ++i) {
    if (static_cast<std::size_t>(kRows[i].field) != i) return false;
  }
  return true;
}
static_assert(rows_in_enum_order(), "matcher_field_row indexes the table by MatcherField");

std::string_view simple_class_name(std::string_view class_name) {
  const std::size_t dot = class_name.rfind('.');
  return dot == std::string_view::npos ? class_name : class_name.substr(dot + 1);
}

bool has(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

}  // namespace

std::span<const MatcherFieldRow> matcher_fields() {
  return kRows;
}

const MatcherFieldRow& matcher_field_row(MatcherField field) {
  return kRows[static_cast<std::size_t>(field)];
}

const MatcherFieldRow* matcher_field_by_key(std::string_view key) {
  for (const MatcherFieldRow& row : kRows) {
    if (row.key == key) return &row;
  }
  return nullptr;
}

std::string_view matcher_key_of_alias(std::string_view alias) {
  for (const MatcherFieldRow& row : kRows) {
    for (const std::string_view spelling : row.aliases) {
      if (spelling == alias) return row.key;
    }
  }
  return {};
}

std::string role_of_class(std::string_view class_name) {
  const std::string_view name = simple_class_name(class_name);
  if (has(name, "EditText") || name == "AutoCompleteTextView") return "textfield";
  if (has(name, "Button") && name != "RadioButton" && name != "ToggleButton") return "button";
  if (has(name, "CheckBox")) return "checkbox";
  if (has(name, "Switch") || name == "ToggleButton") return "switch";
  if (name == "RadioButton") return "radio";
  if (has(name, "ImageView")) return "image";
  if (has(name, "TextView")) return "text";
  if (name == "RecyclerView" || name == "ListView" || name == "GridView") return "list";
  if (has(name, "ScrollView") || name == "WebView") return "scrollview";
  std::string lowered(name);
  for (char& c : lowered) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lowered;
}

bool field_accepts(const MatcherFieldRow& row, std::string_view node_value,
                   std::string_view wanted) {
  switch (row.comparison) {
    case FieldComparison::Exact:
      return node_value == wanted;
    case FieldComparison::ContainsIgnoringCase:
      return contains_ignoring_case(node_value, wanted);
    case FieldComparison::Role:
      break;
  }
  return equals_ignoring_case(role_of_class(node_value), wanted) ||
         equals_ignoring_case(simple_class_name(node_value), wanted);
}

}  // namespace clawperator::contract
