#pragma once

// The cell grid of the spatial index. Every valid Point under a spatially indexed path
// gets one index entry whose value is the number of its 0.01° × 0.01° cell (row-major
// from the south-west corner, so one row's cells are consecutive numbers); every other
// valid shape gets the entry kExtendedShapeCell. A query turns its region (a polygon, or
// a point and a radius) into a conservative bounding box and reads the cells of that box,
// one key range per row, plus the extended shapes: a superset of the items that can
// match, which the executor then filters by evaluating the WHERE clause.
//
// Index keys use the item path followed by kCellPathSegment, a segment no JSON
// property name can equal (0xFF never occurs in UTF-8).

#include <cstdint>
#include <string_view>
#include <vector>

#include "spatial/geojson.h"

namespace orrery::spatial {

inline constexpr std::string_view kCellPathSegment =
    "\xFF"
    "cells";

inline constexpr double kCellDegrees = 0.01;
inline constexpr int64_t kCellColumns = 36000;  // 360 / kCellDegrees
inline constexpr int64_t kCellRows = 18000;     // 180 / kCellDegrees
inline constexpr int64_t kExtendedShapeCell = -1;

// The cell holding a valid position.
int64_t CellOf(const Position& position);

// The index value of a valid shape: its cell for a Point, else kExtendedShapeCell.
int64_t IndexCellOf(const Shape& shape);

// A longitude/latitude box with west <= east (a box across the antimeridian is two).
struct Box {
  double west = -180;
  double south = -90;
  double east = 180;
  double north = 90;
};

// Boxes that together contain every point of the valid shape, geodesic edges and all,
// grown by `margin_metres` in every direction.
std::vector<Box> CoveringBoxes(const Shape& shape, double margin_metres);

// Inclusive ranges of index values covering `boxes`, sorted and disjoint, always with
// kExtendedShapeCell. Few enough to seek each (wide regions merge rows into one range).
struct CellRange {
  int64_t first = 0;
  int64_t last = 0;
};
std::vector<CellRange> CellRanges(const std::vector<Box>& boxes);

// A rectangle of cells, inclusive, in a row-major grid of `columns` columns.
struct CellBlock {
  int64_t first_row = 0;
  int64_t last_row = 0;
  int64_t first_column = 0;
  int64_t last_column = 0;
};
// CellRanges for any such grid (planar_cells.h uses it too): one range per row of each
// block (a tall block becomes one range), with kExtendedShapeCell, sorted and merged.
std::vector<CellRange> CellRangesOfBlocks(const std::vector<CellBlock>& blocks, int64_t columns);

}  // namespace orrery::spatial
