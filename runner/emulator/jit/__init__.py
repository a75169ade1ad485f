"""The emulator's translator: gfx1100 code objects to host code (C++ compiled by clang-16, one
lane loop per vector instruction over a wave's 32 lanes), run in-process on worker threads, with
the interpreter for every instruction it does not translate (counted in the statistics)."""
