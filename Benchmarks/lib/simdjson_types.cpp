// Benchmarks/lib/simdjson_types.cpp: the native-parser peer of `roadmapctl validate` for a
// plain clone (validate.sh prefers ../shared/bench's anchor when it is there).
//
// simdjson's DOM parse (all of JSON, UTF-8 included), then the type checks of the format's
// schema (Samples/roadmap.schema.json): a top-level array of objects, each with a string
// "id"; "title", "status" and "description" a string or null; "isFinished" a bool or null;
// "votes" an integer or null; "localizedTitle", "localizedStatus" and "localizedDescription"
// null or an array of objects whose "language" and "value" are strings.
// Exit status: 0 valid, 1 invalid (the first problem on stdout), 2 usage or I/O.
#include <simdjson.h>

#include <cstdio>
#include <string_view>

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

bool is_null(element value) { return value.type() == element_type::NULL_VALUE; }

bool string_or_null(element value) {
  return is_null(value) || value.type() == element_type::STRING;
}

bool localized_list(element value) {
  if (is_null(value)) return true;
  simdjson::dom::array entries;
  if (value.get_array().get(entries)) return false;
  for (element entry : entries) {
    simdjson::dom::object fields;
    if (entry.get_object().get(fields)) return false;
    bool language = false, text = false;
    for (auto field : fields) {
      bool is_string = field.value.type() == element_type::STRING;
      if (field.key == "language") language = is_string;
      if (field.key == "value") text = is_string;
    }
    if (!language || !text) return false;
  }
  return true;
}

// The problem with one feature's member, or nullptr.
const char *member_problem(std::string_view key, element value) {
  if (key == "id") return value.type() == element_type::STRING ? nullptr : "id is not a string";
  if (key == "title" || key == "status" || key == "description")
    return string_or_null(value) ? nullptr : "a text member is not a string or null";
  if (key == "isFinished")
    return is_null(value) || value.type() == element_type::BOOL ? nullptr
                                                                : "isFinished is not a bool";
  if (key == "votes") {
    element_type type = value.type();
    return is_null(value) || type == element_type::INT64 || type == element_type::UINT64
               ? nullptr
               : "votes is not an integer";
  }
  if (key == "localizedTitle" || key == "localizedStatus" || key == "localizedDescription")
    return localized_list(value) ? nullptr : "a localized list is malformed";
  return nullptr;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: simdjson_types FILE\n");
    return 2;
  }
  simdjson::dom::parser parser;
  element document;
  if (auto error = parser.load(argv[1]).get(document)) {
    std::printf("invalid: %s\n", simdjson::error_message(error));
    return error == simdjson::IO_ERROR ? 2 : 1;
  }
  simdjson::dom::array features;
  if (document.get_array().get(features)) {
    std::printf("invalid: the top level is not an array\n");
    return 1;
  }
  size_t index = 0;
  for (element feature : features) {
    simdjson::dom::object members;
    if (feature.get_object().get(members)) {
      std::printf("invalid: $[%zu] is not an object\n", index);
      return 1;
    }
    bool has_id = false;
    for (auto member : members) {
      if (member.key == "id") has_id = true;
      if (const char *problem = member_problem(member.key, member.value)) {
        std::printf("invalid: $[%zu] %s\n", index, problem);
        return 1;
      }
    }
    if (!has_id) {
      std::printf("invalid: $[%zu] has no id\n", index);
      return 1;
    }
    ++index;
  }
  return 0;
}
