#include "cli/main_command.h"

int main(int argc, char** argv) { return orrery::cli::Main(argc, argv); }
