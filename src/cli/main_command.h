#pragma once

namespace orrery::cli {

// Parses the command line and runs the chosen command; returns the exit code.
int Main(int argc, char** argv);

}  // namespace orrery::cli
