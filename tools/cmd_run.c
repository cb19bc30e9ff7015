/*
 * cmd_run.c - `vc4kit run` (not built yet).
 */
#include "tool.h"

int cmd_run(int argc, char **argv)
{
    (void)argc;
    tool_error("%s: not implemented yet", argv[0]);
    return 2;
}
