// The include layers of docs/architecture.md, checked on the headers as they are: every header of include/tessera
// belongs to exactly one layer of the table there, and includes headers of its own layer or of lower ones only (a
// core header never includes an extra, an extra never includes an optional module). The table is read from the
// document, so that the map and the code cannot drift apart.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#ifndef TESSERA_SOURCE_DIR
#    error "TESSERA_SOURCE_DIR names the root of the source tree (test/CMakeLists.txt defines it)"
#endif

namespace {

namespace fs = std::filesystem;

/// One row of the table: a layer number and the patterns of its headers ("entity/engine/*" or a path).
struct layer_row {
    int layer;
    std::vector<std::string> patterns;
};

[[nodiscard]] std::string read_file(const fs::path &path) {
    std::ifstream in{path};
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

[[nodiscard]] std::vector<layer_row> read_layers(const std::string &document) {
    const auto begin = document.find("<!-- layers");
    const auto end = document.find("<!-- /layers -->");
    std::vector<layer_row> rows;

    if (begin == std::string::npos || end == std::string::npos) {
        return rows;
    }

    std::istringstream lines{document.substr(begin, end - begin)};
    const std::regex row{R"(^\| (\d+) [^|]*\| (.*) \|$)"};
    const std::regex code{"`([^`]+)`"};

    for (std::string line; std::getline(lines, line);) {
        if (std::smatch match; std::regex_match(line, match, row)) {
            layer_row entry{std::stoi(match[1].str()), {}};
            const std::string cell = match[2].str();

            for (auto it = std::sregex_iterator{cell.begin(), cell.end(), code}; it != std::sregex_iterator{}; ++it) {
                entry.patterns.push_back((*it)[1].str());
            }

            rows.push_back(std::move(entry));
        }
    }

    return rows;
}

/// True if `header` (relative to include/tessera) matches `pattern`: a path, or a folder followed by `*` for the
/// headers directly in it.
[[nodiscard]] bool matches(const std::string &header, const std::string &pattern) {
    if (pattern.size() > 1u && pattern.back() == '*') {
        const auto folder = pattern.substr(0u, pattern.size() - 1u);
        return header.rfind(folder, 0u) == 0u && header.find('/', folder.size()) == std::string::npos;
    }

    return header == pattern;
}

struct layout {
    fs::path root = fs::path{TESSERA_SOURCE_DIR} / "include" / "tessera";
    std::vector<layer_row> rows = read_layers(read_file(fs::path{TESSERA_SOURCE_DIR} / "docs" / "architecture.md"));

    [[nodiscard]] std::vector<std::string> headers() const {
        std::vector<std::string> out;

        for (const auto &entry : fs::recursive_directory_iterator{root}) {
            if (entry.is_regular_file() && entry.path().extension() == ".hpp") {
                out.push_back(entry.path().lexically_relative(root).generic_string());
            }
        }

        std::sort(out.begin(), out.end());
        return out;
    }

    /// The layers whose patterns match the header. A header named by its path belongs to that row alone, whatever
    /// the folders (`core/*`) other rows list.
    [[nodiscard]] std::vector<int> layers_of(const std::string &header) const {
        std::vector<int> out;

        for (const auto &row : rows) {
            if (std::find(row.patterns.begin(), row.patterns.end(), header) != row.patterns.end()) {
                return {row.layer};
            }

            if (std::any_of(row.patterns.begin(), row.patterns.end(),
                            [&header](const auto &pattern) { return matches(header, pattern); })) {
                out.push_back(row.layer);
            }
        }

        return out;
    }

    /// The headers of include/tessera that `header` includes with quotes, relative to include/tessera.
    [[nodiscard]] std::vector<std::string> includes_of(const std::string &header) const {
        const std::regex include{R"re(^\s*#\s*include\s*"([^"]+)")re"};
        std::istringstream lines{read_file(root / header)};
        std::vector<std::string> out;

        for (std::string line; std::getline(lines, line);) {
            if (std::smatch match; std::regex_search(line, match, include)) {
                const auto target = (fs::path{header}.parent_path() / match[1].str()).lexically_normal();
                out.push_back(target.generic_string());
            }
        }

        return out;
    }
};

TEST(include_layers, the_table_is_there) {
    const layout tree{};
    ASSERT_GE(tree.rows.size(), 5u) << "docs/architecture.md lost its layer table";
    EXPECT_GT(tree.headers().size(), 50u);
}

TEST(include_layers, every_header_is_in_exactly_one_layer) {
    const layout tree{};

    for (const auto &header : tree.headers()) {
        EXPECT_EQ(tree.layers_of(header).size(), 1u)
            << header << ": add it to exactly one row of the layer table of docs/architecture.md";
    }
}

TEST(include_layers, no_header_includes_a_higher_layer) {
    const layout tree{};

    for (const auto &header : tree.headers()) {
        const auto own = tree.layers_of(header);

        if (own.size() != 1u) {
            continue;
        }

        for (const auto &target : tree.includes_of(header)) {
            EXPECT_TRUE(fs::exists(tree.root / target)) << header << " includes a missing header: " << target;
            const auto theirs = tree.layers_of(target);

            if (theirs.size() == 1u) {
                EXPECT_LE(theirs.front(), own.front())
                    << header << " (layer " << own.front() << ") includes " << target << " (layer " << theirs.front()
                    << "): a lower layer may not include a higher one (docs/architecture.md)";
            }
        }
    }
}

// The checker itself: a pattern matches the headers directly in its folder, and a rule broken on purpose is seen.
TEST(include_layers, the_checker_sees_a_broken_rule) {
    EXPECT_TRUE(matches("entity/engine/block_walk.hpp", "entity/engine/*"));
    EXPECT_FALSE(matches("entity/engine/deeper/x.hpp", "entity/engine/*"));
    EXPECT_FALSE(matches("entity/view.hpp", "entity/engine/*"));
    EXPECT_TRUE(matches("entity/view.hpp", "entity/view.hpp"));

    const auto rows =
        read_layers("<!-- layers -->\n| Layer | Headers |\n|---|---|\n| 3 entity-core | `entity/view.hpp` |\n"
                    "| 4 extras | `entity/chunk.hpp`, `entity/commands/*` |\n<!-- /layers -->\n");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1].layer, 4);
    EXPECT_EQ(rows[1].patterns, (std::vector<std::string>{"entity/chunk.hpp", "entity/commands/*"}));
}

} // namespace
