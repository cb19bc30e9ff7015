/*
 * cmd_render.c - `vc4kit render` (not built yet).
 */
#include "tool.h"

int cmd_render(int argc, char **argv)
{
    (void)argc;
    tool_error("%s: not implemented yet", argv[0]);
    return 2;
}
