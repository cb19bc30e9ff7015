/*
 * test_asm_vc4asm.c - fidelity against real vc4asm output.
 *
 * Every entry below is a fact about vc4asm's behaviour: a source line and the
 * 64-bit word vc4asm produced for it, read from listings that vc4asm wrote in
 * its C-array format ("/ * [0xADDR] * / 0xLO, 0xHI, // source line"):
 *
 *   - vc4asm's own test reference for the Raspberry Pi H.264/HEVC motion
 *     compensation shader (maazl/vc4asm test/rpi_shader.qasm -> rpi_shader.ref.c)
 *     and other builds of that shader in public repositories (rpi_shader.c,
 *     ff_hevc_rpi_shader.c of the RPi FFmpeg forks);
 *   - vc4asm's sample/simple/smitest (ALU, pack and unpack modes), whose
 *     listing shader.c is published with the source;
 *   - small vc4asm-built programs in public repositories (a VPM/VDW fill loop).
 *
 * Symbols those sources define elsewhere (ra_x, rb_pitch, i_shift16, ...) are
 * replaced by the raw register or value: from the listing's own .set lines
 * where visible, else inferred from the word.  Lines that use vc4.qinc
 * helpers appear with the helper's value.  Whole third-party files are not
 * copied; the smitest program is reconstructed from its listing's comments.
 */
#include "harness.h"

#include "vc4kit/qpu.h"

struct vec {
    const char *src;
    uint32_t lo, hi;
};

/* One instruction line -> the word vc4asm produced (assembled at pc 0). */
static const struct vec lines[] = {
    /* --- vc4asm test/rpi_shader.ref.c (mc_setup_uv ... mc_filter_b) --- */
    {"mov ra31, unif", 0x15827d80, 0x100207e7},
    {"add ra16, unif, elem_num", 0x0c9a0f80, 0x10020427},
    {"mov ra29, unif", 0x15827d80, 0x10020767},
    {"mov ra24, unif", 0x15827d80, 0x10020627},
    {"nop", 0x009e7000, 0x100009e7},
    {"sub ra25, unif, ra24", 0x0d620f80, 0x10020667},
    {"sub rb25,unif,1", 0x0d801dc0, 0xd0021667},
    {"sub rb30,unif,1", 0x0d801dc0, 0xd00217a7},
    {"mov rb16, unif", 0x15827d80, 0x10021427},
    {"mov r0, unif", 0x15827d80, 0x10020827},
    {"mov r1, 0xc0000000", 0xc0000000, 0xe0020867},
    {"add rb24, r1, r0", 0x0c9e7200, 0x10021627},
    {"mov ra20, 1", 0x00000001, 0xe0020527},
    {"mov ra22, 256", 0x00000100, 0xe00205a7},
    {"mov ra30, 64", 0x00000040, 0xe00207a7},
    {"mov rb20, 0xffffff00", 0xffffff00, 0xe0021527},
    {"mov rb22, 255", 0x000000ff, 0xe00215a7},
    {"mov rb23, 24", 0x00000018, 0xe00215e7},
    {"mov ra8, 0", 0x00000000, 0xe0020227},
    {"mov ra9, 0", 0x00000000, 0xe0020267},
    {"mov ra10, 0", 0x00000000, 0xe00202a7},
    {"mov ra11, 0", 0x00000000, 0xe00202e7},
    {"mov ra12, 0", 0x00000000, 0xe0020327},
    {"mov ra13, 0", 0x00000000, 0xe0020367},
    {"mov ra14, 0", 0x00000000, 0xe00203a7},
    {"mov ra15, 0", 0x00000000, 0xe00203e7},
    {"mov r0, ra16", 0x15427d80, 0x10020827},
    {"max r0, r0, 0; mov r1, ra29", 0x937401f6, 0xd0024821},
    {"min r0, r0, rb25 ; mov r3, ra24", 0x926191f6, 0x10024823},
    {"shl ra19, r0, 3 ; mov r2, ra25", 0x916431f6, 0xd00244e2},
    {"add ra29, r1, 1", 0x0c9c13c0, 0xd0020767},
    {"add r0, r0, r3", 0x0c9e70c0, 0x10020827},
    {"and r0, r0, ~3", 0x149dc1c0, 0xd0020827},
    {"max r1, r1, 0 ; mov ra16, r0", 0x939c03c0, 0xd0025850},
    {"min r1, r1, rb30", 0x129de3c0, 0x10020867},
    {"add r2, r2, r0 ; mul24 r1, r1, rb16", 0x4c9d040f, 0x100248a1},
    {"add t0s, r0, r1 ; mov ra24, r2", 0x8c9e7052, 0x10025e18},
    {"add t1s, r2, r1", 0x0c9e7440, 0x10020f27},
    {"mov r2,8", 0x00000008, 0xe00208a7},
    {"shl rb12,unif,r2", 0x11827c80, 0x10021327},
    {"add rb13,unif,r2", 0x0c827c80, 0x10021367},
    {"mov r2, unif", 0x15827d80, 0x100208a7},
    {"shl r2, r2, 1", 0x119c15c0, 0xd00208a7},
    {"and r2, r2, 15", 0x149cf5c0, 0xd00208a7},
    {"mov r1, r2", 0x159e7480, 0x10020867},
    {"asr r1, r1, 2", 0x0f9c23c0, 0xd0020867},
    {"shl r1, r1, 6", 0x119c63c0, 0xd0020867},
    {"mov r0, r2", 0x159e7480, 0x10020827},
    {"and r0, r0, 3", 0x149c31c0, 0xd0020827},
    {"add r0, r0, r1", 0x0c9e7040, 0x10020827},
    {"mov r1, 0x4800", 0x00004800, 0xe0020867},
    {"add rb28, r0, r1", 0x0c9e7040, 0x10021727},
    {"asr r2, r0, 1", 0x0f9c11c0, 0xd00208a7},
    {"mov r1, 0x2900", 0x00002900, 0xe0020867},
    {"add rb21, r2, r1", 0x0c9e7440, 0x10021567},
    {"mov r1, 0x80004004", 0x80004004, 0xe0020867},
    {"shl r0, r0, 5", 0x119c51c0, 0xd0020827},
    {"add rb27, r0, r1", 0x0c9e7040, 0x100216e7},
    {"max r1, ra29, 0", 0x13740dc0, 0xd0020867},
    {"add ra29, ra29, 1", 0x0c741dc0, 0xd0020767},
    {"bra -, ra31", 0x00000000, 0xf0f7e9e7},
    {"nop ; mul24 r1, r1, rb16", 0x409d000f, 0x100049e1},
    {"add t0s, r1, ra16", 0x0c427380, 0x10020e27},
    {"add t1s, r1, ra24", 0x0c627380, 0x10020f27},
    {"mov ra17, ra19", 0x154e7d80, 0x10020467},
    {"add r0, unif, elem_num", 0x0c9a0f80, 0x10020827},
    {"max r0, r0, 0; mov r1, unif", 0x938001f6, 0xd0024821},
    {"min r0, r0, rb25 ; mov r3, unif", 0x928191f6, 0x10024823},
    {"shl ra19, r0, 3", 0x119c31c0, 0xd00204e7},
    {"sub r2, unif, r3", 0x0d827cc0, 0x100208a7},
    {"and rb19, r0, ~3", 0x149dc1c0, 0xd00214e7},
    {"mov ra28, r1", 0x159e7240, 0x10020727},
    {"add ra26, rb19, r2", 0x0c9d3e80, 0x100206a7},
    {"mov vw_setup, rb28", 0x159dcfc0, 0x10021c67},
    {"mov r2, 16", 0x00000010, 0xe00208a7},
    {"shr r1, r0, r2", 0x0e9e7080, 0x10020867},
    {"sub rb29, rb24, r1", 0x0d9d8e40, 0x10021767},
    {"and r0, r0, rb22", 0x149d61c0, 0x10020827},
    {"add rb17, r0, 1", 0x0c9c11c0, 0xd0021467},
    {"add rb18, r0, 3", 0x0c9c31c0, 0xd00214a7},
    {"shl r0, r0, 7", 0x119c71c0, 0xd0020827},
    {"shl r0, r0, r2", 0x119e7080, 0x10020827},
    {"add rb26, r0, rb27", 0x0c9db1c0, 0x100216a7},
    {"asr ra3, r0, rb23;      mul24 r0, r0, ra22", 0x4f5971c6, 0x100240e0},
    {"asr ra2, r0, rb23;      mul24 r0, r0, ra22", 0x4f5971c6, 0x100240a0},
    {"asr ra1, r0, rb23;      mul24 r0, r0, ra22", 0x4f5971c6, 0x10024060},
    {"asr ra0, r0, rb23;      mov r0, unif", 0x8f8171f6, 0x10024020},
    {"asr rb11, r0, rb23;     mul24 r0, r0, ra22", 0x4f5971c6, 0x100252e0},
    {"asr rb10, r0, rb23;     mul24 r0, r0, ra22", 0x4f5971c6, 0x100252a0},
    {"asr rb9, r0, rb23;      mul24 r0, r0, ra22", 0x4f5971c6, 0x10025260},
    {"asr rb8, r0, rb23", 0x0f9d71c0, 0x10021227},
    {"mov.setf -, [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]", 0x0000ff00, 0xe20229e7},
    {"asr rb15, r0, r2", 0x0f9e7080, 0x100213e7},
    {"asr r3, r0, r2", 0x0f9e7080, 0x100208e7},
    {"asr.ifnz rb15, r0, r2", 0x0f9e7080, 0x100613e7},
    {"asr.ifnz r3, r0, r2", 0x0f9e7080, 0x100608e7},
    {"shl rb14,r3,8", 0x119c87c0, 0xd00213a7},
    {"mov r3, 0", 0x00000000, 0xe00208e7},
    {"sub.setf -, r3, rb17      ; v8adds r3, r3, ra20                     ; ldtmu0",
     0xcd5117de, 0xa00269e3},
    {"shr r0, r4, ra17     ; mov.ifz ra16, rb19       ; ldtmu1", 0x8e4539bf, 0xb0029810},
    {"mov.ifz ra24, ra26 ; mov rb31, r3", 0x956a7d9b, 0x1004461f},
    {"mov.ifz ra29, ra28   ; mov r3, rb16", 0x95710dbf, 0x10044763},
    {"shr r1, r4, ra17    ; v8subs r0, r0, rb20", 0xee454987, 0x10024860},
    {"max r2, ra29, 0", 0x13740dc0, 0xd00208a7},
    {"min r2, r2, rb30", 0x129de5c0, 0x100208a7},
    {"add ra29, ra29, 1         ; mul24 r2, r2, r3", 0x4c741dd3, 0xd0024762},
    {"add t0s, ra16, r2    ; v8subs r1, r1, rb20", 0xec414c8f, 0x10024e21},
    {"add t1s, ra24, r2", 0x0c627c80, 0x10020f27},
    {"nop                  ; mul24 r2, r0, ra0", 0x40027006, 0x100049e2},
    {"nop                  ; mul24.ifnz r2, ra0 << 8, r1 << 8", 0x40038031, 0xd000c9e2},
    {"nop                  ; mul24      r3, ra1 << 1, r0 << 1", 0x4007f030, 0xd00049e3},
    {"nop                  ; mul24.ifnz r3, ra1 << 9, r1 << 9", 0x40077031, 0xd000c9e3},
    {"add r2, r2, r3       ; mul24    r3, ra2 << 2, r0 << 2", 0x4c0be4f0, 0xd00248a3},
    {"nop                  ; mul24.ifnz r3, ra2 << 10, r1 << 10", 0x400b6031, 0xd000c9e3},
    {"add r2, r2, r3       ; mul24    r3, ra3 << 3, r0 << 3", 0x4c0fd4f0, 0xd00248a3},
    {"nop                  ; mul24.ifnz r3, ra3 << 11, r1 << 11", 0x400f5031, 0xd000c9e3},
    {"add r2, r2, r3       ; mul24    r3, ra4 << 4, r0 << 4", 0x4c13c4f0, 0xd00248a3},
    {"nop                  ; mul24.ifnz r3, ra4 << 12, r1 << 12", 0x40134031, 0xd000c9e3},
    {"add r2, r2, r3       ; mul24    r3, ra5 << 5, r0 << 5", 0x4c17b4f0, 0xd00248a3},
    {"nop                  ; mul24.ifnz r3, ra5 << 13, r1 << 13", 0x40173031, 0xd000c9e3},
    {"add r2, r2, r3       ; mul24    r3, ra6 << 6, r0 << 6", 0x4c1ba4f0, 0xd00248a3},
    {"nop                  ; mul24.ifnz r3, ra6 << 14, r1 << 14", 0x401b2031, 0xd000c9e3},
    {"add r2, r2, r3       ; mul24    r3, ra7 << 7, r0 << 7", 0x4c1f94f0, 0xd00248a3},
    {"nop                  ; mul24.ifnz r3, ra7 << 15, r1 << 15", 0x401f1031, 0xd000c9e3},
    {"add r0, r2, r3       ; mov r3, rb31", 0x8c9df4ff, 0x10024823},
    {"sub.setf -, r3, 4    ; mov ra12, ra13", 0x8d3447f6, 0xd00279cc},
    {"sub.setf -, r3, 8    ; mov ra8, ra9", 0x8d2487f6, 0xd00279c8},
    {"mov ra9, ra10", 0x152a7d80, 0x10020267},
    {"mov ra10, ra11", 0x152e7d80, 0x100202a7},
    {"mov ra11, ra12", 0x15327d80, 0x100202e7},
    {"mov ra12, ra13", 0x15367d80, 0x10020327},
    {"mov ra13, ra14", 0x153a7d80, 0x10020367},
    {"mov ra14, ra15", 0x153e7d80, 0x100203a7},
    {"mov ra15, r0", 0x159e7000, 0x100203e7},
    {"nop                     ; mul24 r1, ra14, rb10", 0x4038a037, 0x100049e1},
    {"nop                     ; mul24 r0, ra13, rb9", 0x40349037, 0x100049e0},
    {"add r1, r1, r0          ; mul24 r0, ra12, rb8", 0x4c308237, 0x10024860},
    {"add r1, r1, r0          ; mul24 r0, ra15, rb11", 0x4c3cb237, 0x10024860},
    {"add r1, r1, r0          ; mul24 r0, ra8, rb4", 0x4c204237, 0x10024860},
    {"add r1, r1, r0          ; mul24 r0, ra9, rb5", 0x4c245237, 0x10024860},
    {"add r1, r1, r0          ; mul24 r0, ra10, rb6", 0x4c286237, 0x10024860},
    {"add r1, r1, r0          ; mul24 r0, ra11, rb7", 0x4c2c7237, 0x10024860},
    {"add r1, r1, r0          ; mov -, vw_wait", 0x8c9f223f, 0x10020867},
    {"sub.setf -, r3, rb18    ; mul24 r1, r1, ra22", 0x4d5927ce, 0x100269e1},
    {"asr r1, r1, 14", 0x0f9ce3c0, 0xd0020867},
    {"nop                     ; mul24 r1, r1, rb14", 0x409ce00f, 0x100049e1},
    {"add r1, r1, rb12", 0x0c9cc3c0, 0x10020867},
    {"asr r1, r1, rb13", 0x0f9cd3c0, 0x10020867},
    {"add r1, r1, rb15", 0x0c9cf3c0, 0x10020867},
    {"min r1, r1, rb22", 0x129d63c0, 0x10020867},
    {"max vpm, r1, 0", 0x139c03c0, 0xd0020c27},
    {"mov vw_setup, rb26", 0x159dafc0, 0x10021c67},
    {"mov vw_setup, rb29", 0x159ddfc0, 0x10021c67},
    {"mov vw_addr, unif", 0x15827d80, 0x10021ca7},
    {"mov r0, 16", 0x00000010, 0xe0020827},
    {"mov -, vw_wait", 0x159f2fc0, 0x100009e7},
    {"mov  -, vw_wait", 0x159f2fc0, 0x100009e7},
    {"add vw_setup, rb26, r0", 0x0c9dae00, 0x10021c67},
    {"mov vw_setup, rb21", 0x159d5fc0, 0x10021c67},
    {"mov r5rep, -8", 0xfffffff8, 0xe0021967},
    {"sub.setf -, r3, rb18", 0x0d9d27c0, 0x100229e7},
    {"asr vpm, r1, 6", 0x0f9c63c0, 0xd0020c27},
    {"shl r3, r0, 13", 0x119cd1c0, 0xd00208e7},
    {"shl r3, r3, 8", 0x119c87c0, 0xd00208e7},
    {"shr r3, r3, 8", 0x0e9c87c0, 0xd00208e7},
    {"add vr_setup, r3, rb21", 0x0c9d57c0, 0x10020c67},
    {"add r1, r1, vpm", 0x0cc27380, 0x10020867},
    {"add r1, r1, ra30", 0x0c7a7380, 0x10020867},
    {"asr r1, r1, 7", 0x0f9c73c0, 0xd0020867},
    {"mov -,srel0", 0x00000000, 0xe80009e7},
    {"ldtmu0", 0x009e7000, 0xa00009e7},
    {"ldtmu1", 0x009e7000, 0xb00009e7},
    {"nop        ; nop ; thrend", 0x009e7000, 0x300009e7},
    {"nop        ; nop", 0x009e7000, 0x100009e7},
    {"mov -,sacq0", 0x00000010, 0xe80009e7},
    {"mov interrupt, 1; nop", 0x00000001, 0xe00209a7},
    {"mov r3, 16", 0x00000010, 0xe00208e7},
    {"mov ra8, unif", 0x15827d80, 0x10020227},
    {"mov ra9, unif", 0x15827d80, 0x10020267},
    {"mov ra10, unif", 0x15827d80, 0x100202a7},
    {"mov ra11, unif", 0x15827d80, 0x100202e7},
    {"mov r1, unif", 0x15827d80, 0x10020867},
    {"shl r0,r1,r3", 0x119e72c0, 0x10020827},
    {"asr r1,r1,r3", 0x0f9e72c0, 0x10020867},
    {"asr r0,r0,r3", 0x0f9e70c0, 0x10020827},
    {"sub rb25,r1,1", 0x0d9c13c0, 0xd0021667},
    {"sub rb30,r0,1", 0x0d9c11c0, 0xd00217a7},
    {"mov r1, ra8", 0x15227d80, 0x10020867},
    {"add r0, r0, elem_num", 0x0c9a7180, 0x10020827},
    {"max r0, r0, 0", 0x139c01c0, 0xd0020827},
    {"min r0, r0, rb25 ; mov r2, ra9", 0x922591f6, 0x10024822},
    {"and r0, r0, ~3", 0x149dc1c0, 0xd0020827},
    {"add r2, r2, r0", 0x0c9e7400, 0x100208a7},
    {"max r1, r1, 0", 0x139c03c0, 0xd0020867},
    {"nop             ; mul24 r1, r1, rb16", 0x409d000f, 0x100049e1},
    {"add t0s, r2, r1 ; mov ra24, r2", 0x8c9e7452, 0x10025e18},
    {"mov r1, ra10", 0x152a7d80, 0x10020867},
    {"min r0, r0, rb25 ; mov r2, ra11", 0x922d91f6, 0x10024822},
    {"shl ra23, r0, 3", 0x119c31c0, 0xd00205e7},
    {"add ra21, r1, 1", 0x0c9c13c0, 0xd0020567},
    {"add t1s, r2, r1 ; mov ra25, r2", 0x8c9e7452, 0x10025f19},
    {"mov ra18, 0x4000", 0x00004000, 0xe00204a7},
    {"mov r2, qpu_num", 0x159e6fc0, 0x100208a7},
    {"shl r0,r1,r3 ; mov r2,8", 0x919c82ff, 0xd0024822},
    {"asr rb13,r0,r3", 0x0f9e70c0, 0x10021367},
    {"asr rb12,r1,r3", 0x0f9e72c0, 0x10021327},
    {"add rb13,rb13,r2", 0x0c9cde80, 0x10021367},
    {"shl rb12, rb12, r2", 0x119cce80, 0x10021327},
    {"add t0s, r1, ra24", 0x0c627380, 0x10020e27},
    {"max r1, ra21, 0", 0x13540dc0, 0xd0020867},
    {"add ra21, ra21, 1", 0x0c541dc0, 0xd0020567},
    {"add t1s, r1, ra25", 0x0c667380, 0x10020f27},
    {"mov rb0, ra23", 0x155e7d80, 0x10021027},
    {"min r0, r0, rb25 ; mov r2, unif", 0x928191f6, 0x10024822},
    {"add ra26, r2, r0 ; mov r1, unif", 0x8c827436, 0x100246a1},
    {"mov rb1, r1", 0x159e7240, 0x10021067},
    {"add rb19, r2, r0", 0x0c9e7400, 0x100214e7},
    {"shr r1, r0, r3", 0x0e9e70c0, 0x10020867},
    {"add rb17, r0, 5", 0x0c9c51c0, 0xd0021467},
    {"add rb18, r0, 7", 0x0c9c71c0, 0xd00214a7},
    {"shl r0, r0, r3", 0x119e70c0, 0x10020827},
    {"mov r0, unif ; mov r1,1", 0x95801dbf, 0xd0024821},
    {"asr ra9, r0, rb23;      mul24 r0, r0, ra22", 0x4f5971c6, 0x10024260},
    {"asr ra8, r0, rb23;      mul24 r0, r0, ra22", 0x4f5971c6, 0x10024220},
    {"asr.ifz ra9, r0, rb23;  mul24 r0, r0, ra22", 0x4f5971c6, 0x10044260},
    {"asr.ifz ra8, r0, rb23", 0x0f9d71c0, 0x10040227},
    {"sub ra9,3,ra9", 0x0d243f80, 0xd0020267},
    {"sub ra8,3,ra8", 0x0d203f80, 0xd0020227},
    {"shl ra9,ra9,3", 0x11243dc0, 0xd0020267},
    {"shl ra8,ra8,3", 0x11203dc0, 0xd0020227},
    {"mov r1,0xffff00", 0x00ffff00, 0xe0020867},
    {"shl r0, r1, ra8", 0x11227380, 0x10020827},
    {"asr ra0, r0, rb23", 0x0f9d71c0, 0x10020027},
    {"shl r0, r1, ra9", 0x11267380, 0x10020827},
    {"asr rb4, r0, rb23", 0x0f9d71c0, 0x10021127},
    {"mov r1,0x1040400", 0x01040400, 0xe0020867},
    {"asr ra1, r0, rb23", 0x0f9d71c0, 0x10020067},
    {"asr rb5, r0, rb23", 0x0f9d71c0, 0x10021167},
    {"mov r1,0xfbf5f600", 0xfbf5f600, 0xe0020867},
    {"asr ra2, r0, rb23", 0x0f9d71c0, 0x100200a7},
    {"asr rb6, r0, rb23", 0x0f9d71c0, 0x100211a7},
    {"mov r1,0x11283a40", 0x11283a40, 0xe0020867},
    {"asr ra3, r0, rb23", 0x0f9d71c0, 0x100200e7},
    {"asr rb7, r0, rb23", 0x0f9d71c0, 0x100211e7},
    {"mov r1,0x3a281100", 0x3a281100, 0xe0020867},
    {"asr ra4, r0, rb23", 0x0f9d71c0, 0x10020127},
    {"mov r1,0xf6f5fb00", 0xf6f5fb00, 0xe0020867},
    {"asr ra5, r0, rb23", 0x0f9d71c0, 0x10020167},
    {"asr rb9, r0, rb23", 0x0f9d71c0, 0x10021267},
    {"mov r1,0x4040100", 0x04040100, 0xe0020867},
    {"asr ra6, r0, rb23", 0x0f9d71c0, 0x100201a7},
    {"asr rb10, r0, rb23", 0x0f9d71c0, 0x100212a7},
    {"mov r1,0xffff0000", 0xffff0000, 0xe0020867},
    {"asr ra7, r0, rb23", 0x0f9d71c0, 0x100201e7},
    {"asr rb11, r0, rb23", 0x0f9d71c0, 0x100212e7},
    {"asr rb15, r0, r3", 0x0f9e70c0, 0x100213e7},
    {"asr r0, r0, r3 ; mov r3, 0", 0xef9e70ff, 0x10024823},
    {"shl rb14, r0, 8", 0x119c81c0, 0xd00213a7},
    {"shr r0, r4, ra17     ; mov.ifz ra25, rb19    ; ldtmu1", 0x8e4539bf, 0xb0029819},
    {"shr r1, r4, rb0", 0x0e9c09c0, 0x10020867},
    {"mov.ifz ra21, rb1", 0x159c1fc0, 0x10040567},
    {"add t0s, ra24, r2   ; v8subs r0, r0, rb20", 0xec614c87, 0x10024e20},
    {"max r2, ra21, 0", 0x13540dc0, 0xd00208a7},
    {"add ra21, ra21, 1            ; mul24 r2, r2, r3", 0x4c541dd3, 0xd0024562},
    {"add t1s, ra25, r2   ; v8subs r1, r1, rb20", 0xec654c8f, 0x10024f21},
    {"asr r0, r1, 14", 0x0f9ce3c0, 0xd0020827},
    {"asr r1, r1, 6", 0x0f9c63c0, 0xd0020867},
    {"nop                     ; mul24 r0, r0 << 8, ra22 << 8", 0x405b8006, 0xd00049e0},
    {"add r1, r1, ra18", 0x0c4a7380, 0x10020867},
    {"add r1, r1, r0", 0x0c9e7200, 0x10020867},
    {"asr r1, r1, 15", 0x0f9cf3c0, 0xd0020867},

    /* --- vc4asm sample/simple smitest listing (shader.c) --- */
    {"shl r0, elem_num, 3;", 0x11983dc0, 0xd0020827},
    {"mov ra0, unif # vector count", 0x15827d80, 0x10020027},
    {"add ra1, r0, unif; # base address", 0x0c827180, 0x10020067},
    {"mov ra3, unif; # target address", 0x15827d80, 0x100200e7},
    {"mov rb0, 16*2*4-4", 0x0000007c, 0xe0021027},
    {"mov r2, 0x1200", 0x00001200, 0xe00208a7},
    {"add vw_setup, r2, elem_num;", 0x0c9a7580, 0x10021c67},
    {"add ra1, ra1, 4; mov t0s, ra1", 0x8c044df6, 0xd0024078},
    {"add ra1, ra1, rb0; mov t0s, ra1", 0x8c040df6, 0x10024078},
    {"mov r0, r4; ldtmu0", 0x159e7900, 0xa0020827},
    {"mov r1, r4", 0x159e7900, 0x10020867},
    {"fadd vpm, r0, r1 # Y0", 0x019e7040, 0x10020c27},
    {"fsub vpm, r0, r1", 0x029e7040, 0x10020c27},
    {"fmin vpm, r0, r1", 0x039e7040, 0x10020c27},
    {"fmax vpm, r0, r1", 0x049e7040, 0x10020c27},
    {"fminabs vpm, r0, r1 # Y4", 0x059e7040, 0x10020c27},
    {"fmaxabs vpm, r0, r1", 0x069e7040, 0x10020c27},
    {"ftoi vpm, r1", 0x079e7240, 0x10020c27},
    {"itof vpm, r1", 0x089e7240, 0x10020c27},
    {"add vpm, r0, r1 # Y8", 0x0c9e7040, 0x10020c27},
    {"sub vpm, r0, r1", 0x0d9e7040, 0x10020c27},
    {"shr vpm, r0, r1", 0x0e9e7040, 0x10020c27},
    {"asr vpm, r0, r1", 0x0f9e7040, 0x10020c27},
    {"ror vpm, r0, r1 # Y12", 0x109e7040, 0x10020c27},
    {"shl vpm, r0, r1", 0x119e7040, 0x10020c27},
    {"min vpm, r0, r1", 0x129e7040, 0x10020c27},
    {"max vpm, r0, r1", 0x139e7040, 0x10020c27},
    {"and vpm, r0, r1 # Y16", 0x149e7040, 0x10020c27},
    {"or vpm, r0, r1", 0x159e7040, 0x10020c27},
    {"xor vpm, r0, r1", 0x169e7040, 0x10020c27},
    {"not vpm, r1", 0x179e7240, 0x10020c27},
    {"clz vpm, r1 # Y20", 0x189e7240, 0x10020c27},
    {"fmul vpm, r0, r1", 0x209e7001, 0x100049f0},
    {"mul24 vpm, r0, r1", 0x409e7001, 0x100049f0},
    {"v8muld vpm, r0, r1", 0x609e7001, 0x100049f0},
    {"v8min vpm, r0, r1 # Y24", 0x809e7001, 0x100049f0},
    {"v8max vpm, r0, r1", 0xa09e7001, 0x100049f0},
    {"v8adds vpm, r0, r1", 0xc09e7001, 0x100049f0},
    {"v8subs vpm, r0, r1", 0xe09e7001, 0x100049f0},
    {"fmul vpm.8abcds, r0, r1", 0x209e7001, 0x11b049f0},
    {"mul24 vpm.8abcds, r0, r1", 0x409e7001, 0x11b049f0},
    {"v8muld vpm.8abcds, r0, r1 # Y40", 0x609e7001, 0x11b049f0},
    {"v8min vpm.8abcds, r0, r1", 0x809e7001, 0x11b049f0},
    {"v8adds vpm.8abcds, r0, r1", 0xc09e7001, 0x11b049f0},
    {"v8subs vpm.8abcds, r0, r1", 0xe09e7001, 0x11b049f0},
    {"add ra16.32s, r0, r0", 0x0c9e7000, 0x10820427},
    {"mov vpm, ra16", 0x15427d80, 0x10020c27},
    {"mov r2, 16*4; mov r1, ra3", 0x870e6ff6, 0xd00248a1},
    {"mov vw_setup, 0xc0000074", 0xc0000074, 0xe0021c67},
    {"mov vw_setup, 0x88104000", 0x88104000, 0xe0021c67},
    {"add r1, r1, r2; mov vw_addr, r1", 0x8c9e7289, 0x10024872},
    {"mov vw_addr, r1", 0x159e7240, 0x10021ca7},
    {"sub.setf ra0, ra0, 1", 0x0d001dc0, 0xd0022027},
    {"mov r2, 0xb40", 0x00000b40, 0xe00208a7},
    {"add ra3, ra3, r2", 0x0c0e7c80, 0x100200e7},
    {"shl r0, elem_num, 2;", 0x11982dc0, 0xd0020827},
    {"mov rb0, 16*4", 0x00000040, 0xe0021027},
    {"nop; mov vpm.8abcds, r0", 0x809e7000, 0x11b049f0},
    {"nop; mov vpm.8as, r0", 0x809e7000, 0x114049f0},
    {"nop; mov vpm.8bs, r0", 0x809e7000, 0x115049f0},
    {"nop; mov vpm.8cs, r0", 0x809e7000, 0x116049f0},
    {"nop; mov vpm.8ds, r0 # Y4", 0x809e7000, 0x117049f0},
    {"mov ra16, 0xbbbbbbbb", 0xbbbbbbbb, 0xe0020427},
    {"mov ra17, 0xbbbbbbbb", 0xbbbbbbbb, 0xe0020467},
    {"mov ra16.16a, r0", 0x159e7000, 0x10120427},
    {"mov ra17.16b, r0", 0x159e7000, 0x10220467},
    {"fmin ra16.16a, r0,r0; mov vpm, ra16", 0x83427036, 0x10124430},
    {"fmin ra17.16b, r0,r0; mov vpm, ra17", 0x83467036, 0x10224470},
    {"mov ra16.8abcd, r0;  mov vpm, ra16", 0x95427036, 0x10324430},
    {"mov ra17.8a, r0;     mov vpm, ra17 # Y8", 0x95467036, 0x10424470},
    {"mov ra16.8b, r0;     mov vpm, ra16", 0x95427036, 0x10524430},
    {"mov ra17.8c, r0;     mov vpm, ra17", 0x95467036, 0x10624470},
    {"mov ra16.8d, r0;     mov vpm, ra16", 0x95427036, 0x10724430},
    {"mov ra17.32s, r0;    mov vpm, ra17 # Y12", 0x95467036, 0x10824470},
    {"mov ra16.16as, r0;   mov vpm, ra16", 0x95427036, 0x10924430},
    {"mov ra17.16bs, r0;   mov vpm, ra17", 0x95467036, 0x10a24470},
    {"fmin ra16.16as, r0,r0; mov vpm, ra16", 0x83427036, 0x10924430},
    {"fmin ra17.16bs, r0,r0; mov vpm, ra17 # Y16", 0x83467036, 0x10a24470},
    {"mov ra16.8abcds, r0; mov vpm, ra16", 0x95427036, 0x10b24430},
    {"mov ra17.8as, r0;    mov vpm, ra17", 0x95467036, 0x10c24470},
    {"mov ra16.8bs, r0;    mov vpm, ra16", 0x95427036, 0x10d24430},
    {"mov ra17.8cs, r0;    mov vpm, ra17 # Y20", 0x95467036, 0x10e24470},
    {"mov ra16.8ds, r0;    mov vpm, ra16", 0x95427036, 0x10f24430},
    {"mov vpm, ra17", 0x15467d80, 0x10020c27},
    {"thrend", 0x009e7000, 0x300009e7},
    {"mov interrupt, 1;", 0x00000001, 0xe00209a7},

    /* --- a vc4asm-built VPM fill loop (iXSteps = rb0, iYSteps = ra0, ...) --- */
    {"mov rb0,unif", 0x15827d80, 0x10021027},
    {"mov ra0,unif", 0x15827d80, 0x10020027},
    {"mov rb1,unif", 0x15827d80, 0x10021067},
    {"mov ra1,unif", 0x15827d80, 0x10020067},
    {"mov ra2,rb0", 0x159c0fc0, 0x100200a7},
    {"mov ra3,rb1", 0x159c1fc0, 0x100200e7},
    {"mov ra20,-1", 0xffffffff, 0xe0020527},
    {"mov -,vw_wait", 0x159f2fc0, 0x100009e7},
    {"mov r0,qpu_num", 0x159e6fc0, 0x10020827},
    {"shl r0,r0,2", 0x119c21c0, 0xd0020827},
    {"ldi r1, 0x1a00", 0x00001a00, 0xe0020867},
    {"add vw_setup,r0,r1", 0x0c9e7040, 0x10021c67},
    {"mov vpm,ra20", 0x15527d80, 0x10020c27},
    {"shl r0,r0,2+7", 0x119c91c0, 0xd0020827},
    {"ldi r1,0x80904000", 0x80904000, 0xe0020867},
    {"mov vw_addr,ra3", 0x150e7d80, 0x10021ca7},
    {"mov         r0,16", 0x00000010, 0xe0020827},
    {"add         ra3,ra3,r0", 0x0c0e7c00, 0x100200e7},
    {"sub.setf    ra2,ra2,1", 0x0d081dc0, 0xd00220a7},
    {"add         rb1,rb1,ra1", 0x0c041f80, 0x10021067},
    {"sub.setf    ra0,ra0,1", 0x0d001dc0, 0xd0022027},
    {"mov interrupt, 1    # End when running via MBox interface", 0x00000001, 0xe00209a7},
    {"nop; thrend         # Or running directly", 0x009e7000, 0x300009e7},

    /* --- rpi_shader.c, a later vc4asm build (ra_link = ra30, rb_xpitch = rb20,
     *     ra_k1 = ra20, rb_k255 = rb22, i_shift16 = 16, SRC_STRIPE_WIDTH = 128) --- */
    {"mov tmurs, 1          ; mov ra30, unif", 0x95801ff6, 0xd002591e},
    {"mov r0, elem_num", 0x159a7d80, 0x10020827},
    {"add ra16, ra0.16b, r0", 0x0c027c00, 0x14020427},
    {"mov ra29, ra0.16a", 0x15027d80, 0x12020767},
    {"mov rb16, 128", 0x00000080, 0xe0021427},
    {"mov rb20, unif", 0x15827d80, 0x10021527},
    {"add rb24, r1, unif", 0x0c827380, 0x10021627},
    {"min r0, r0, rb25", 0x129d91c0, 0x10020827},
    {"and r1, r0, 1", 0x149c11c0, 0xd0020867},
    {"shl ra19, r1, 4", 0x119c43c0, 0xd00204e7},
    {"mov r2, 128 - 2", 0x0000007e, 0xe00208a7},
    {"shr r1, r0, 7", 0x0e9c71c0, 0xd0020867},
    {"and r0, r0, r2 ; mul24 r1, r1, rb20", 0x549d408f, 0x10024821},
    {"add r0, r0, r0", 0x0c9e7000, 0x10020827},
    {"add ra16, ra24, r0", 0x0c627c00, 0x10020427},
    {"mov r1, ra29", 0x15767d80, 0x10020867},
    {"add t0s, ra16, r1", 0x0c427c40, 0x10020e27},
    {"add rb13, 9, unif", 0x0c809f80, 0xd0021367},
    {"mov -, unif", 0x15827d80, 0x100009e7},
    {"asr r1, r2, 2", 0x0f9c25c0, 0xd0020867},
    {"and r0, r2, 3", 0x149c35c0, 0xd0020827},
    {"or  r0, r0, r1", 0x159e7040, 0x10020827},
    {"bra -, ra30", 0x00000000, 0xf0f7c9e7},
    {"mov ra30, unif", 0x15827d80, 0x100207a7},
    {"mov ra2, unif", 0x15827d80, 0x100200a7},
    {"mov r0, elem_num      ; mov r3, unif", 0x959a0dbf, 0x10024823},
    {"add r0, ra2.16b, r0", 0x0c0a7c00, 0x14020827},
    {"shl ra19, r0, 4", 0x119c41c0, 0xd00204e7},
    {"add rb19, r3, r0", 0x0c9e7600, 0x100214e7},
    {"mov ra28, ra2.16a", 0x150a7d80, 0x12020727},
    {"sub rb29, rb24, ra1.16b", 0x0d058f80, 0x14021767},
    {"add rb17, ra1.16a, 1", 0x0c041dc0, 0xd2021467},
    {"add rb18, ra1.16a, 3", 0x0c043dc0, 0xd20214a7},
    {"shl r0,   ra1.16a, 7", 0x11047dc0, 0xd2020827},
    {"mov.setf -, ra9     ; mov -, vw_wait", 0x95272dbf, 0x100229e7},
    {"add r0,   r0, ra1.16b", 0x0c067180, 0x14020827},
    {"shl r0,   r0, 16", 0x119d01c0, 0xd0020827},
    {"add rb26, r0, rb27    ; mov ra3, unif", 0x8c81b1f6, 0x10025683},
    {"sub vw_setup, ra9, -16", 0x0d250dc0, 0xd0021c67},
    {"mov vw_setup, ra10", 0x152a7d80, 0x10021c67},
    {"mov vw_addr, ra11", 0x152e7d80, 0x10021ca7},
    {"mov ra1, unif         ; mov rb8,  ra3.8a", 0x950e0ff6, 0x18024048},
    {"mov.ifnz ra1, unif    ; mov rb9,  ra3.8b", 0x950e0ff6, 0x1a064049},
    {"nop                   ; mov rb10, ra3.8c", 0x800e7036, 0x1c0049ca},
    {"shl r1, ra1.16b, rb13", 0x1104ddc0, 0x14020867},
    {"asr rb12, r1, 1", 0x0f9c13c0, 0xd0021327},
    {"shl rb14, ra1.16a, 1", 0x11041dc0, 0xd20213a7},
    {"sub.setf -, r3, rb17   ; v8adds r3, r3, ra20          ; ldtmu0", 0xcd5117de, 0xa00269e3},
    {"shr r0, r4, ra17  ; mov.ifz ra16, rb19", 0x8e4539bf, 0x10029810},
    {"nop                   ; mov rb31, r3", 0x809e701b, 0x100049df},
    {"mov r1, r0            ; v8min r0, r0, rb22", 0x959d6007, 0x10024860},
    {"shr r1, r1, 8", 0x0e9c83c0, 0xd0020867},
    {"add t0s, ra16, r2     ; v8min r1, r1, rb22", 0x8c416c8f, 0x10024e21},
    {"nop                  ; mul24      r3, ra0.8a,       r0", 0x40027030, 0x180049e3},
    {"sub r0, r2, r3       ; mov r3, rb31", 0x8d9df4ff, 0x10024823},
    {"mov ra13, ra14          ; mul24 r1, ra14, rb9", 0x55389db7, 0x10024361},
    {"mov ra15, r0            ; mul24 r0, ra12, rb8", 0x55308037, 0x100243e0},
    {"sub r1, r1, r0          ; mul24 r0, ra14, rb10", 0x4d38a237, 0x10024860},
    {"sub r1, r1, r0          ; mov -, vw_wait", 0x8d9f223f, 0x10020867},
    {"shl r1, r1, 8", 0x119c83c0, 0xd0020867},
    {"mov vw_setup, rb26    ; mov ra9, rb26", 0x959dafff, 0x10025c49},
    {"mov vw_setup, rb29    ; mov ra10, rb29", 0x959ddfff, 0x10025c4a},
    {"mov ra11, unif", 0x15827d80, 0x100202e7},
    {"add ra31, ra1.16a, 3", 0x0c043dc0, 0xd20207e7},
    {"add r0,   r0, ra1.16b        ; mov ra3, unif", 0x8c0601bf, 0x14025803},
    {"shl r0,   r0, 16      ; mov rb14, unif", 0x918101f6, 0xd002480e},
    {"mov rb8, ra3.8a", 0x150e7d80, 0x18021227},
    {"mov rb9, ra3.8b", 0x150e7d80, 0x1a021267},
    {"mov rb10, ra3.8c", 0x150e7d80, 0x1c0212a7},
    {"mov rb11, ra3.8d", 0x150e7d80, 0x1e0212e7},
    {"mov ra14, ra15        ; mul24 r2, ra15, rb10", 0x553cadb7, 0x100243a2},

    /* --- ff_hevc_rpi_shader.c (RPi FFmpeg HEVC decoder), a vc4asm build with
     *     packed register symbols: ra_k0 = ra20.8a, ra_k1 = ra20.8b,
     *     ra_y = ra17.16b, ra_y2 = ra17.16a, rb_ef = rb3, ra_base = ra24,
     *     rb_pitch = rb16, rb_xpitch = rb20, rb_max_x = rb26, rb_max_y = rb30,
     *     rb_elem_x = rb2, ra_blk_height = ra23.8c, ra_pmax = ra23.16a, ... --- */
    {"mov tmurs, 1                  ; mov ra0, unif", 0x95801ff6, 0xd0025900},
    {"mov r0, [0,2,0,2,0,2,0,2,1,3,1,3,1,3,1,3]", 0xaaaaff00, 0xe6020827},
    {"shl rb3, r0, 30      ; mov ra24, unif", 0x9181e1f6, 0xd00250d8},
    {"shl rb26, r0, 1", 0x119c11c0, 0xd00216a7},
    {"mov ra20, 0xff800100", 0xff800100, 0xe0020527},
    {"mov rb24, 255", 0x000000ff, 0xe0021627},
    {"mov ra23, ((1 << 8) - 1) | (16 << 16)", 0x001000ff, 0xe00205e7},
    {"mov rb31, (0x4000 << (8 - 8))", 0x00004000, 0xe00217e7},
    {"mov ra25, (0x4000 << 16) | (7 + 15 - 8)", 0x4000000e, 0xe0020667},
    {"mov ra29, rb3              ; mov rb20, unif", 0x95803ff6, 0x10024754},
    {"add rb25, r1, rb16", 0x0c9d03c0, 0x10021667},
    {"and r0, 1, elem_num", 0x14981f80, 0xd0020827},
    {"nop                           ; mul24 r0, r0, 5", 0x409c5007, 0xd00049e0},
    {"add rb2, r0, elem_num", 0x0c9a7180, 0x100210a7},
    {"shl r0, ra0.16b, 1", 0x11001dc0, 0xd4020827},
    {"add r0, r0, rb2", 0x0c9c21c0, 0x10020827},
    {"max r0, r0, 0                 ; mov ra17.16b, ra0.16a", 0x930001f6, 0xd2225811},
    {"min r0, r0, rb26", 0x129da1c0, 0x10020827},
    {"shl ra21.16b, r0, 3", 0x119c31c0, 0xd0220567},
    {"and r0, r0, -4", 0x149dc1c0, 0xd0020827},
    {"sub r1, ra20.8a, rb16", 0x0d510dc0, 0x18020867},
    {"and r1, r0, r1", 0x149e7040, 0x10020867},
    {"xor r0, r0, r1                ; mul24 r1, r1, rb20", 0x569d404f, 0x10024821},
    {"add r0, r0, r1                ; mov ra0, unif", 0x8c827076, 0x10025800},
    {"add ra24, ra24, r0", 0x0c627c00, 0x10020627},
    {"add r0, r0, rb2         ; mov ra17.16a, ra0.16a", 0x8c0021f6, 0x12125811},
    {"max r0, r0, 0                 ; mov rb15, unif", 0x938001f6, 0xd002480f},
    {"shl rb1, r0, 3", 0x119c31c0, 0xd0021067},
    {"and r1, r0, r1                ; mov r3, 3", 0x949c307f, 0xd0024863},
    {"add r0, r0, r1                ; mov r2, ra17.16a", 0x8c467076, 0x12024822},
    {"add rb15, rb15, r0    ; mov r0, ra17.16b", 0x8c44fe36, 0x140253e0},
    {"sub.setf r3, r3, 1", 0x0d9c17c0, 0xd00228e7},
    {"add r0, r0, ra20.8b             ; mul24 r1, r1, rb16", 0x4c51018f, 0x1a024821},
    {"add t0s, ra24, r1          ; mov ra17.16b, r0", 0x8c627c40, 0x10225e11},
    {"max r1, r2, 0", 0x139c05c0, 0xd0020867},
    {"add r2, r2, ra20.8b             ; mul24 r1, r1, rb16", 0x4c51058f, 0x1a0248a1},
    {"add t1s, rb15, r1         ; mov ra17.16a, r2", 0x8c9cfe52, 0x10125f11},
    {"mov vw_setup, rb28     ; mov ra2, unif", 0x9581cff6, 0x10025c42},
    {"add.setf -, rb3, rb3      ; mov r3, unif", 0x8c803ff6, 0x100269e3},
    {"shl r0, ra2.16b, 1    ; v8subs r5rep, r0, r0", 0xf1081dc0, 0xd4024825},
    {"add r0, r0, rb2         ; mov ra16, unif", 0x8c8021f6, 0x10025810},
    {"sub r1, r5, rb16          ; mov ra0, unif", 0x8d810bf6, 0x10025840},
    {"max r0, r0, r5                ; mov rb0, ra21.16b", 0x93567176, 0x14024800},
    {"min r0, r0, rb26          ; mov ra19.16b, ra2.16a", 0x9209a1f6, 0x12225813},
    {"and r1, r0, r1                ; mul24 r2, ra16.16b, 2", 0x54402077, 0xd4024862},
    {"add ra26, r3, r0     ; mov r1, ra16.16a", 0x8c427636, 0x120246a1},
    {"sub rb29, rb25, r2 ; mov ra22, unif", 0x8d819eb6, 0x10025756},
    {"add rb17, r1, (3-4) - 3 ; v8min r1, r1, ra23.8c", 0x8c5dc3ce, 0xdc025461},
    {"add rb18, r1, (3-4)      ; mov.ifc ra22, unif", 0x8c81f3f6, 0xd0039496},
    {"shl r0, r1, 7     ; mov ra28, unif", 0x918073f6, 0xd002581c},
    {"add r0, r0, r2                ; mov r2, ra25.16b", 0x8c6670b6, 0x14024822},
    {"shl r0, r0, 16    ; mov rb10, ra3.8c", 0x910d01f6, 0xdc02480a},
    {"add ra27, r0, rb27 ; mov r1, ra22.16b", 0x8c59b1f6, 0x140246e1},
    {"shl r1, r1, 12       ; mul24 r0, r2, ra22.16a", 0x5158c3d6, 0xd2024860},
    {"sub rb12, r1, r0         ; mov r0, ra25.16b", 0x8d667236, 0x14025320},
    {"add ra22.16a, ra22.16a, r0 ; mov r5rep, -4", 0x8c59cc3f, 0xd21245a5},
    {"mov rb11, ra3.8d              ; mov ra30, unif", 0x950e0dbf, 0x1e0252de},
    {"sub.setf -, r5, rb17      ; mov rb4, ra5                  ; ldtmu0", 0x8d151bf6, 0xa00269c4},
    {"shr r2, r4, rb0        ; mov.ifz  r3, ra19.16b", 0x8e4c09f6, 0x140288a3},
    {"shr r1, r2, 8         ; mov.ifnz r3, ra17.16b", 0x8e4485f6, 0xd402c863},
    {"add.setf -, rb3, rb3      ; mov.ifz  ra24, ra26", 0x8c683ff6, 0x1002b9d8},
    {"add ra17.16b, r3, ra20.8b          ; mov      r0, r1 << 15", 0x8c531789, 0xda224460},
    {"max r3, r3, ra20.8a             ; mov.ifnc r1, r2 << 1", 0x9353f792, 0xd803c8e1},
    {"min r3, r3, rb30          ; mov.ifnc r0, r2", 0x929de7d2, 0x1003c8e0},
    {"and r1, r1, ra23.16a           ; mul24 r3, r3, rb16", 0x545d039f, 0x12024863},
    {"add t0s, ra24, r3      ; v8min r0, r0, rb24", 0x8c618cc7, 0x10024e20},
    {"add r5rep, r5, 1              ; mul24      r3, ra0.8a,       r0", 0x4c001bf0, 0xd8025963},
    {"sub r2, rb31, r3      ; mul24      r3, ra0.8d,       r1", 0x4d01fef1, 0x1e0248a3},
    {"add r2, r2, r3                ; mul24 r0, ra7, rb10", 0x4c1ca4f7, 0x100248a0},
    {"mov ra5, rb6                  ; mul24 r1, rb6, ra3.8b", 0x550c6ffe, 0x1a024161},
    {"asr ra7, r2, 8 - 8  ; mov rb6, ra7", 0x8f1c05f6, 0xd00241c6},
    {"add r1, r1, r0                ; mul24 r0, rb4, ra3.8a", 0x4c0c423e, 0x18024860},
    {"sub r1, r1, r0                ; mul24 r0, ra7, rb11", 0x4d1cb237, 0x10024860},
    {"sub r1, r1, r0", 0x0d9e7200, 0x10020867},
    {"asr r1, r1, 6                 ; mov r3, ra23.8c", 0x8f5c63f6, 0xdc024863},
    {"sub.setf -, r5, rb18     ; mul24 r0, r1, ra22.16a", 0x4d592bce, 0x120269e0},
    {"add r0, r0, rb12         ; mul24 r1, r1, ra25.16b", 0x4c64c1ce, 0x14024821},
    {"sub r1, r0, r1                ; v8subs r0, ra16.16a, r3", 0xed427073, 0x12024860},
    {"asr r1, r1, 13", 0x0f9cd3c0, 0xd0020867},
    {"min r1, r1, ra23.16a           ; mov -, vw_wait", 0x925f23bf, 0x12020867},
    {"max vpm, r1, ra20.8a            ; mul24 r2, r3, rb16", 0x5351039f, 0x18024c22},
    {"mov.setf ra16.16a, r0        ; mov vw_setup, ra27", 0x956e7036, 0x10126431},
    {"bra.anyz -, ra30", 0x00000000, 0xf027c9e7},
    {"min r0, r0, r3                ; mov vw_setup, rb29", 0x929dd0ff, 0x10024831},
    {"sub r1, r0, r3                ; mov vw_addr, ra28", 0x8d7270f6, 0x10024872},
    {"shl r1, r1, 23", 0x119d73c0, 0xd0020867},
    {"add rb18, rb18, r0", 0x0c9d2e00, 0x100214a7},
    {"add ra27, ra27, r1", 0x0c6e7c40, 0x100206e7},
    {"add ra28, ra28, r2      ; mov vw_setup, rb28", 0x8c71ccbf, 0x10024731},
    {"max r0, r0, r5                ; mov ra21.16a, rb1", 0x939c117f, 0x10125815},
    {"min r0, r0, rb26          ; mov ra19.16a, ra2.16a", 0x9209a1f6, 0x12125813},
    {"add rb19, r3, r0     ; mov r1, ra16.16a", 0x8c427636, 0x120254e1},
    {"shr r2, r4, ra21.16a        ; mov.ifz  rb15, rb19", 0x8e5539bf, 0x1202888f},
    {"shr r1, r2, 8         ; mov.ifnz r3, ra17.16a", 0x8e4485f6, 0xd202c863},
    {"add.setf -, rb3, rb3      ; mov.ifz  r3, ra19.16a", 0x8c4c3ff6, 0x1202a9e3},
    {"add ra17.16a, r3, ra20.8b          ; mov      r0, r1 << 15", 0x8c531789, 0xda124460},
    {"add t1s, rb15, r3      ; v8min r0, r0, ra23.16a", 0x8c5cfec6, 0x12024f20},
    /* ff_hevc_rpi_shader.c, mc_filter_c_b and mc_sync_q* (ra_wt_mul_l0 =
     * ra22.16a, ra_wt_mul_l1 = ra18.16a, ra_kmul_add = ra25.16b, rb_pmask =
     * rb24, rb_i_tmu = rb17, rb_lcount = rb18, ra_link = ra30, ...) */
    {"sub.setf -, r5, rb17      ; nop                           ; ldtmu0", 0x0d9d1bc0, 0xa00229e7},
    {"add r0, r2, r3                ; mul24 ra4, rb5, ra2.8a        ; ldtmu1", 0x4c0854fe, 0xb8025804},
    {"add ra17.16b, 1, ra17.16b             ; mov r3, ra17.16b", 0x8c441fb6, 0xd4224463},
    {"mov.ifnc r0, r2               ; mul24 r3, r3, rb16", 0x559d049f, 0x100e4823},
    {"shr r2, r4, ra10              ; mov rb5, rb6", 0x8e2869bf, 0x10024885},
    {"shr ra7, r0, 8 - 8  ; mov rb6, ra7", 0x8e1c01f6, 0xd00241c6},
    {"mov rb9, rb10                 ; mul24 r1, rb10, ra3.8b", 0x550caffe, 0x1a025261},
    {"shr ra11, r2, 8 - 8 ; mov rb10, ra11", 0x8e2c05f6, 0xd00242ca},
    {"sub r2, r1, r0                ; mul24 r1, rb5,  ra2.8b", 0x4d08523e, 0x1a0248a1},
    {"sub.setf -, r5, rb18     ; mov r0, ra4", 0x8d112bf6, 0x100269e0},
    {"shr r1, r1, 6", 0x0e9c63c0, 0xd0020867},
    {"shr r2, r2, 6                 ; mul24 r0, r1, ra22.16a", 0x4e5865ce, 0xd20248a0},
    {"asr r1, r1, ra25.8a", 0x0f667380, 0x18020867},
    {"mov ra10, rb0          ; mov rb7,  ra2.8d", 0x95080ff6, 0x1e024287},
    {"shl r1, r1, 13       ; mov rb11, ra3.8d", 0x910cd3f6, 0xde02484b},
    {"sub rb12, r1, r0         ; mov ra30, unif", 0x8d827236, 0x1002531e},
    {"add ra22.16a, ra22.16a, r2 ; mul24 r1, r0, ra22.16a", 0x4c5a7c86, 0x121245a1},
    {"add ra18.16a, ra18.16a, r2 ; mul24 r0, r0, ra18.16a", 0x4c4a7c86, 0x121244a0},
    {"add r0, r0, r1                ; mov r1, ra18.16b", 0x8c4a7076, 0x14024821},
    {"add rb19, r3, r0     ; mov r0, ra25.16b", 0x8c667636, 0x140254e0},
    {"and r1, r0, r1                ; mov r5rep, -4", 0x949dc07f, 0xd0024865},
    {"and r0, r0, -4                ; mov.ifc ra18, unif", 0x9481c1f6, 0xd0039812},
    {"min r0, r0, rb26          ; mov r2, ra25.16b", 0x9265a1f6, 0x14024822},
    {"max r0, r0, r5                ; mov ra9, rb30", 0x939de17f, 0x10025809},
    {"sub r1, r5, rb16          ; mov ra18, unif", 0x8d810bf6, 0x10025852},
    {"add r0, r0, rb2         ; mov ra3, unif", 0x8c8021f6, 0x10025803},
    {"shl r0, r0, 1         ; mov ra1, unif", 0x918011f6, 0xd0025801},
    {"add ra27, r0, rb27 ; mov r0, ra3.16b", 0x8c0db1f6, 0x140246e0},
    {"shl r0, r0, 16    ; mov ra19.16a, ra3.16a", 0x910d01f6, 0xd2125813},
    {"add r0, r0, r2                ; mov r3, unif", 0x8c8270b6, 0x10024823},
    {"shl r0, r1, 7     ; mov ra3, unif", 0x918073f6, 0xd0025803},
    {"add rb18, r1, (3-4)      ; mov.ifc ra22.16a, ra22.16b", 0x8c59f3f6, 0xd4139496},
    {"add ra26, r3, r0      ; mov rb0, rb1", 0x8c9c163f, 0x10024680},
    {"max r0, r0, r5                ; mov ra21.16a, ra21.16b", 0x93567176, 0x14125815},
    {"min r0, r0, rb26          ; mov ra0, unif", 0x9281a1f6, 0x10025800},
    {"and r0, r0, -4                ; mov ra2, unif", 0x9481c1f6, 0xd0025802},
    {"add r0, r0, r1                ; mov r1, ra16.16a", 0x8c427076, 0x12024821},
    {"sub r1, r5, rb16          ; mov ra16, unif", 0x8d810bf6, 0x10025850},
    {"add r0, r0, rb2         ; mov ra19.16b, ra2.16a", 0x8c0821f6, 0x12225813},
    {"shl r0, ra2.16b, 1    ; v8subs r5rep, r1, r1", 0xf1081dc9, 0xd4024825},
    {"shr r1, r2, 8         ; mov.ifz ra17, ra19", 0x8e4c85f6, 0xd0029851},
    {"max r3, r3, ra20.8a             ; mov      r0, r1 << 15", 0x93531789, 0xd80248e0},
    {"min r3, r3, ra9               ; mov.ifnc r1, r2 << 1", 0x9227f792, 0xd003c8e1},
    {"and r1, r1, rb24          ; mul24      r2, ra0.8a,       r0", 0x540183f0, 0x18024862},
    {"sub r2, rb31, r2      ; mul24      r3, ra0.8d,       r1", 0x4d01feb1, 0x1e0248a3},
    {"sub r2, r2, r3                ; mul24      r3, ra0.8b << 2,  r0 << 2", 0x4d03e4f0, 0xda0248a3},
    {"nop                           ; mul24.ifn  r3, ra0.8b << 12, r1 << 12", 0x40034031, 0xda0109e3},
    {"add r2, r2, r3                ; mul24      r3, ra0.8c << 4,  r0 << 4", 0x4c03c4f0, 0xdc0248a3},
    {"nop                           ; mul24.ifn  r3, ra0.8c << 14, r1 << 14", 0x40032031, 0xdc0109e3},
    {"add.setf -, r5, r5            ; mul24.ifn  r3, ra0.8c << 14, r1 << 14", 0x4c032b71, 0xdc0329e3},
    {"add r2, r3, r2                ; mul24      r3, ra1.8c << 4,  r0 << 4", 0x4c07c6b0, 0xdc0248a3},
    {"add.setf -, r5, r5            ; mul24.ifn  r3, ra1.8c << 14, r1 << 14", 0x4c072b71, 0xdc0329e3},
    {"min r3, r3, rb30          ; v8min r1, r1, ra23.16a", 0x925de7ce, 0x120248e1},
    {"add r5rep, r5, 1              ; mul24      r2, ra1.8a,       r0", 0x4c041bf0, 0xd8025962},
    {"sub r2, rb31, r2      ; mul24      r3, ra1.8d,       r1", 0x4d05feb1, 0x1e0248a3},
    {"add r2, r2, r3                ; mul24 r0, rb9,  ra3.8a", 0x4c0c94fe, 0x180248a0},
    {"sub r1, r1, r0                ; mul24 r0, rb6,  ra2.8c", 0x4d08623e, 0x1c024860},
    {"add r1, r1, r0                ; mul24 r0, ra7,  rb7", 0x4c1c7237, 0x10024860},
    {"sub r1, r1, r0                ; mul24 r0, rb10, ra3.8c", 0x4d0ca23e, 0x1c024860},
    {"add r2, r2, r0                ; mul24 r0, ra11, rb11", 0x4c2cb437, 0x100248a0},
    {"sub r2, r2, r0", 0x0d9e7400, 0x100208a7},
    {"add r2, r2, r1                ; mul24 r1, r2, ra18.16a", 0x4c4a7456, 0x120248a1},
    {"add r1, r1, r0                ; mul24 r2, r2, ra25.16b", 0x4c667216, 0x14024862},
    {"sub r1, r1, r2                ; mov r3, ra23.8c", 0x8d5e72b6, 0x1c024863},
    {"add r1, r1, rb12         ; v8subs r0, ra16.16a, r3", 0xec40c3f3, 0x12024860},
    {"mov  -, srel12", 0x0000000c, 0xe80009e7},
    {"mov  -, sacq0", 0x00000010, 0xe80009e7},
    {"mov  -, sacq12", 0x0000001c, 0xe80009e7},
    {"mov  -, srel1", 0x00000001, 0xe80009e7},
    {"mov  -, srel13", 0x0000000d, 0xe80009e7},
    {"mov  -, sacq1", 0x00000011, 0xe80009e7},
    {"mov  -, srel2", 0x00000002, 0xe80009e7},
    {"mov  -, sacq13", 0x0000001d, 0xe80009e7},
    {"mov  -, sacq14", 0x0000001e, 0xe80009e7},
    {"mov  -, srel9", 0x00000009, 0xe80009e7},
    {"srel -, 12", 0x0000000c, 0xe80009e7},
    {"sacq -, 7", 0x00000017, 0xe80009e7},
};

/*
 * "mov x, 0" next to another operation: two vc4asm behaviours exist in
 * published output.  The RPi FFmpeg shader builds (rpi_shader.c,
 * ff_hevc_rpi_shader.c, three listings) load 0 through the small immediate
 * ("or r3, 0, 0" / "v8min r3, 0, 0") and turn "mov ra4, 0 ; mov rb4, 0" into
 * one "ldi ra4, rb4, 0".  maazl/vc4asm's source (AssembleInst::trySmallImmd:
 * "mov ..., 0 does not require small immediate value" -> xor / v8subs of mux B
 * with raddr_b untouched; optimize() converts that to ldi only when the other
 * ALU writes nothing) and its own test reference (test/rpi_shader.ref.c:
 * "asr r0, r0, r3 ; mov r3, 0" = 0xef9e70ff 0x10024823) do not.  vc4kit
 * follows vc4asm's source; these rows keep the other build's words as a
 * record and check the source's.
 */
struct build_vec {
    const char *src;
    uint32_t other_lo, other_hi; /* the FFmpeg-fork build's output */
    uint32_t lo, hi;             /* maazl/vc4asm source behaviour */
};

static const struct build_vec other_build[] = {
    {"mov ra4, 0 ; mov rb4, 0", 0x00000000, 0xe0024104, 0xf69e7fff, 0x10024104},
    {"mov ra5, 0 ; mov rb5, 0", 0x00000000, 0xe0024145, 0xf69e7fff, 0x10024145},
    {"mov ra6, 0 ; mov rb6, 0", 0x00000000, 0xe0024186, 0xf69e7fff, 0x10024186},
    {"mov ra7, 0 ; mov rb7, 0", 0x00000000, 0xe00241c7, 0xf69e7fff, 0x100241c7},
    {"mov r3, 0             ; mov rb11, ra3.8d", 0x950c0ff6, 0xde0248cb, 0x960e7ff6, 0x1e0248cb},
    {"mov.ifnz rb14, unif    ; mov r3, 0", 0x95800dbf, 0xd00653a3, 0xf5827dbf, 0x100653a3},
};

/* Branches to a label: the label is at 'target', the branch at 'pc'. */
struct bvec {
    const char *src; /* refers to the label as L */
    uint32_t pc, target;
    uint32_t lo, hi;
};

static const struct bvec branches[] = {
    /* rpi_shader.ref.c */
    {"brr.anyn -, r:L", 0x408, 0x360, 0xffffff38, 0xf06809e7},
    {"brr.anyn -, r:L", 0x478, 0x360, 0xfffffec8, 0xf06809e7},
    {"brr.anyn -, r:L", 0x1188, 0x1060, 0xfffffeb8, 0xf06809e7},
    {"brr.anyn -, r:L", 0x1218, 0x1060, 0xfffffe28, 0xf06809e7},
    {"brr -, r:L", 0x1238, 0xd80, 0xfffffb28, 0xf0f809e7},
    {"brr -, r:L", 0x1438, 0xd80, 0xfffff928, 0xf0f809e7},
    /* smitest */
    {"brr.anynz -, :L", 0x240, 0x28, 0xfffffdc8, 0xf03809e7},
    {"brr.anynz -, :L", 0x3d8, 0x288, 0xfffffe90, 0xf03809e7},
    /* VPM fill loop */
    {"brr.anynz   -,:L", 0xb8, 0x30, 0xffffff58, 0xf03809e7},
    {"brr.anynz   -,:L", 0xe8, 0x20, 0xffffff18, 0xf03809e7},
    /* rpi_shader.c, later build: a forward branch */
    {"brr.anyz -, r:L", 0x2c8, 0x300, 0x00000018, 0xf02809e7},
    /* ff_hevc_rpi_shader.c: local labels */
    {"brr.anynz -, r:L", 0x1c8, 0x198, 0xffffffb0, 0xf03809e7},
    {"brr.anyn -, r:L", 0x350, 0x2d8, 0xffffff68, 0xf06809e7},
    {"brr.anyn -, r:L", 0x3a8, 0x2d8, 0xffffff10, 0xf06809e7},
    {"brr -, r:L", 0x3f0, 0x2d8, 0xfffffec8, 0xf0f809e7},
    {"brr.anyn -, r:L", 0x820, 0x730, 0xfffffef0, 0xf06809e7},
    {"brr.anyn -, r:L", 0x8a8, 0x730, 0xfffffe68, 0xf06809e7},
    {"brr -, r:L", 0x8f0, 0x730, 0xfffffe20, 0xf0f809e7},
};

static uint64_t word_of(uint32_t lo, uint32_t hi) { return (uint64_t)hi << 32 | lo; }

static void report(const char *src, uint64_t want, uint64_t got, const char *diag)
{
    struct vc4_qpu_instr a, b;
    char ta[256], tb[256];
    vc4_qpu_decode(want, &a);
    vc4_qpu_decode(got, &b);
    vc4_qpu_disasm(&a, 0, VC4_DIS_FIELDS, ta, sizeof ta);
    vc4_qpu_disasm(&b, 0, VC4_DIS_FIELDS, tb, sizeof tb);
    fprintf(stderr, "  vc4asm mismatch: \"%s\"\n    want 0x%016llx %s\n    got  0x%016llx %s\n%s",
            src, (unsigned long long)want, ta, (unsigned long long)got, tb, diag);
}

static void test_vc4asm_lines(void)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        struct vc4_qpu_instr in;
        struct harness_diags d;
        struct vc4_diag_sink sink = harness_sink(&d);
        uint64_t want = word_of(lines[i].lo, lines[i].hi), got = ~want;
        if (vc4_qpu_assemble(lines[i].src, 0, &in, &sink) == VC4_OK)
            got = vc4_qpu_encode(&in);
        if (got != want) {
            report(lines[i].src, want, got, d.text);
            bad++;
        }
    }
    CHECK_EQ_INT(bad, 0);
    printf("vc4asm line vectors: %zu, mismatches: %d\n", sizeof lines / sizeof *lines, bad);
}

/* Issue 13: accepted input where vc4kit gave other words than vc4asm.  The
 * words come from vc4asm's rules (src/AssembleInst.cpp) applied by hand:
 * hi word = sig<<28 | unpack<<25 | pm<<24 | pack<<20 | cond_add<<17 |
 * cond_mul<<14 | sf<<13 | ws<<12 | waddr_add<<6 | waddr_mul; lo word =
 * op_mul<<29 | op_add<<24 | raddr_a<<18 | raddr_b<<12 | add_a<<9 | add_b<<6 |
 * mul_a<<3 | mul_b.  Each also disassembles to text without "@" overrides
 * (vc4asm can read it) that assembles back to the word. */
static const struct vec vc4asm_rules[] = {
    /* an explicit rbN write is regfile B: ws = 1 even where the address is
     * shared (51 mutex, 39 nop).  or = 21, raddr 39/39 muxes A (6) */
    {"or rb51, ra39, ra39", 0x159e7d80, 0x1 << 28 | 1 << 17 | 1 << 12 | 51 << 6 | 39},
    /* waddr 39 without .setf: cond never (optimize: WAddrA == R_NOP && !SF);
     * vr_wait = raddr_a 50 (mux 6), 0 = small immediate 0 (sig 13, mux B 7) */
    {"or rb39, vr_wait, 0", 21u << 24 | 50 << 18 | 0 << 12 | 6 << 9 | 7 << 6,
     0xdu << 28 | 0 << 17 | 1 << 12 | 39 << 6 | 39},
    /* the written condition too gives way to never; unif = raddr_a 32 */
    {"mov.ifnz -, unif", 21u << 24 | 32 << 18 | 39 << 12 | 6 << 9 | 6 << 6,
     0x1 << 28 | 0 << 17 | 39 << 6 | 39},
    /* .8c on a MUL write to regfile A is the regfile-A pack (doPack: pm =
     * !WS || WAddrM >= 32 -> 0), code 6; fmul = 1, r1 r2 = muxes 1 2 */
    {"fmul ra1.8c, r1, r2", 1u << 29 | 39 << 18 | 39 << 12 | 1 << 3 | 2,
     0x1 << 28 | 6 << 20 | 1 << 14 | 1 << 12 | 39 << 6 | 1},
    /* the float spelling asks for the MUL colour pack (calcPM: P_FLT -> pm 1,
     * saturated 8-bit code & 7 = 4) also into regfile A; 1.0 = small imm 32 */
    {"fmul ra1.8asf, r0, 1.0", 1u << 29 | 39 << 18 | 32 << 12 | 0 << 3 | 7,
     0xdu << 28 | 1 << 24 | 4 << 20 | 1 << 14 | 1 << 12 | 39 << 6 | 1},
    /* ... and the MUL colour pack (pm 1, code 6) into an accumulator */
    {"fmul r0.8c, r1, r2", 1u << 29 | 39 << 18 | 39 << 12 | 1 << 3 | 2,
     0x1 << 28 | 1 << 24 | 6 << 20 | 1 << 14 | 39 << 6 | 32},
    /* read (vc4asm assembleREAD): the source through raddr_a (vr_wait = 50)
     * or the small immediate (sig 13, raddr_b 5), no operation; with a signal
     * (ldtmu0 = 10) */
    {"read vr_wait", 50 << 18 | 39 << 12, 0x1u << 28 | 39 << 6 | 39},
    {"read 5", 39 << 18 | 5 << 12, 0xdu << 28 | 39 << 6 | 39},
    {"nop; nop; ldtmu0; read vr_wait", 50 << 18 | 39 << 12, 0xau << 28 | 39 << 6 | 39},
    /* ldi: the first destination rbN expresses ws too (sig 14) */
    {"ldi rb51, 5", 5, 0xeu << 28 | 1 << 17 | 1 << 12 | 51 << 6 | 39},
    /* semaphore numbers (instructions.html "Semaphore instruction"): the low
     * 4 bits name the semaphore, bit 4 is the acquire flag whatever the
     * number says, higher bits go unchanged into the immediate.  Sig 14,
     * unpack 4 (semaphore), no write: cond never */
    {"sacq -, 16", 0x10, 0xeu << 28 | 4 << 25 | 39 << 6 | 39},
    {"srel -, 16", 0x00, 0xeu << 28 | 4 << 25 | 39 << 6 | 39},
    {"srel -, 0x123", 0x123, 0xeu << 28 | 4 << 25 | 39 << 6 | 39},
    {"sacq -, 0x2f", 0x3f, 0xeu << 28 | 4 << 25 | 39 << 6 | 39},
    /* nop with a destination (vc4asm Parser::doNOP -> applyTarget, then
     * AssembleInst::optimize): the op stays nop, the write address is set.
     * An ADD nop gets cond never whatever ("case A_NOP: CondA = C_NEVER"), a
     * MUL nop keeps its condition when it writes ("if (WAddrM == R_NOP)
     * CondM = C_NEVER"), which Inst::reset set to always (1).  ws as for any
     * destination: ra0 from the ADD ALU 0, rb0 1; ra0 from the MUL ALU 1.
     * Muxes 0, raddr 39/39, no signal (1). */
    {"nop ra0", 39 << 18 | 39 << 12, 0x1u << 28 | 0 << 6 | 39},
    {"nop rb0", 39 << 18 | 39 << 12, 0x1u << 28 | 1 << 12 | 0 << 6 | 39},
    {"nop.ifz ra0", 39 << 18 | 39 << 12, 0x1u << 28 | 0 << 6 | 39},
    {"mnop ra0", 39 << 18 | 39 << 12, 0x1u << 28 | 1 << 14 | 1 << 12 | 39 << 6 | 0},
    {"mnop.ifz ra0", 39 << 18 | 39 << 12, 0x1u << 28 | 2 << 14 | 1 << 12 | 39 << 6 | 0},
    /* the ADD ALU is taken: nop goes to the MUL ALU (applyADD -> applyMUL);
     * add = 12, r0 = waddr 32, r1 r2 = muxes 1 2 */
    {"add r0, r1, r2; nop ra3", 12u << 24 | 39 << 18 | 39 << 12 | 1 << 9 | 2 << 6,
     0x1u << 28 | 1 << 17 | 1 << 14 | 1 << 12 | 32 << 6 | 3},
    /* "nop -" is a plain nop */
    {"nop -", 39 << 18 | 39 << 12, 0x1u << 28 | 39 << 6 | 39},
};

static void test_vc4asm_rules(void)
{
    for (size_t i = 0; i < sizeof vc4asm_rules / sizeof *vc4asm_rules; i++) {
        const struct vec *v = &vc4asm_rules[i];
        struct vc4_qpu_instr in, back;
        struct harness_diags d;
        struct vc4_diag_sink sink = harness_sink(&d);
        uint64_t want = word_of(v->lo, v->hi), got = ~want;
        if (vc4_qpu_assemble(v->src, 0, &in, &sink) == VC4_OK)
            got = vc4_qpu_encode(&in);
        if (got != want)
            report(v->src, want, got, d.text);
        CHECK_EQ_U64(got, want);
        char text[256];
        vc4_qpu_decode(want, &in);
        vc4_qpu_disasm(&in, 0, 0, text, sizeof text);
        CHECK_MSG(!strchr(text, '@'), "\"%s\" disassembles with overrides: %s", v->src, text);
        CHECK_MSG(vc4_qpu_assemble(text, 0, &back, NULL) == VC4_OK && vc4_qpu_encode(&back) == want,
                  "\"%s\" -> \"%s\" does not assemble back", v->src, text);
    }
}

/* Disassembly vc4asm reads back (issue 13): words with reserved codes name a
 * valid operation and carry the code as vc4kit's "@field" extension, not
 * "addopN" / ".ccN"; two branch links print "-" in the register place
 * (vc4asm reads "brr ra8, rb8, 2880" as the register rb8); a load
 * immediate's regfile-A pack sits on the destination that writes regfile A. */
static void test_vc4asm_dis_forms(void)
{
    static const struct {
        uint64_t word;
        const char *text;
    } forms[] = {
        /* op_add 9 (reserved), r0 r0, writes nowhere */
        {0x100009e7099e7000ull, "fadd -, r0, r0; nop; @op_add=9"},
        /* branch condition 12 (reserved) */
        {0xf0c009e700000000ull, "bra -, 0x00000000; @cond_br=12"},
        /* brr, links ra8 (add, ws 0) and rb8 (mul), offset 2880 */
        {0xf0f8020800000b40ull, "brr ra8, rb8, -, +2880  # -> 0x00000b60"},
        /* ldi with ws 1: rb2 (add) and ra3 (mul, regfile A) with the
         * regfile-A pack 8a (pm 0, code 4) */
        {0xe0425083000000ffull, "ldi rb2, ra3.8a, 255"},
    };
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        struct vc4_qpu_instr in, back;
        char text[256];
        vc4_qpu_decode(forms[i].word, &in);
        vc4_qpu_disasm(&in, 0, 0, text, sizeof text);
        CHECK_STR(text, forms[i].text);
        CHECK(vc4_qpu_assemble(text, 0, &back, NULL) == VC4_OK &&
              vc4_qpu_encode(&back) == forms[i].word);
    }
}

/* vc4asm's other spellings (Parser.tables.cpp extMap) give the word of the
 * spelling they stand for. */
static void test_vc4asm_spellings(void)
{
    static const char *const same[][2] = {
        {"fadd r0.z, r1, r2", "fadd.ifz r0, r1, r2"},
        {"fadd r0.zs, r1, r2", "fadd.ifz r0, r1, r2"},
        {"fadd r0.nz, r1, r2", "fadd.ifnz r0, r1, r2"},
        {"fadd r0.zc, r1, r2", "fadd.ifnz r0, r1, r2"},
        {"fadd r0.n, r1, r2", "fadd.ifn r0, r1, r2"},
        {"fadd r0.nn, r1, r2", "fadd.ifnn r0, r1, r2"},
        {"fadd r0.c, r1, r2", "fadd.ifc r0, r1, r2"},
        {"fadd r0.cc, r1, r2", "fadd.ifcc r0, r1, r2"},
        {"fadd.ifzs r0, r1, r2", "fadd.ifz r0, r1, r2"},
        {"fadd.sf r0, r1, r2", "fadd.setf r0, r1, r2"},
        {"ldi.sf r0, 5", "ldi.setf r0, 5"},
        {"fmul ra1.8888, r1, r2", "fmul ra1.8abcd, r1, r2"},
        {"fmul r0.8888, r1, r2", "fmul r0.8abcd, r1, r2"},
        {"fadd ra1.8ai, r1, r2", "fadd ra1.8a, r1, r2"},
        {"fadd ra1.8dsi, r1, r2", "fadd ra1.8ds, r1, r2"},
        {"fadd ra1.16aclamp, r1, r2", "fadd ra1.16as, r1, r2"},
        {"fadd ra1.32clamp, r1, r2", "fadd ra1.32s, r1, r2"},
        {"fadd r0, ra1.8af, r2", "fadd r0, ra1.8a, r2"},
        /* anop / mnop: a nop tied to its ALU (vc4asm opcode table) */
        {"mnop; fadd r0, r1, r2", "fadd r0, r1, r2; nop"},
        {"anop; fmul r0, r1, r2", "nop; fmul r0, r1, r2"},
        {"anop; mnop", "nop; nop"},
        /* op-level pack/unpack (instructions.html "Pack/unpack"): .packxx
         * is the destination's .xx, .unpackyy the regfile-A (else r4) source's */
        {"fadd.pack16a ra1, r1, r2", "fadd ra1.16a, r1, r2"},
        {"fmul.pack8888 r0, r1, r2", "fmul r0.8abcd, r1, r2"},
        {"fmul.pack8a r0, r1, r2; mov ra3, r1", "fmul r0.8a, r1, r2; mov ra3, r1"},
        {"mov.unpack8a r0, ra1", "mov r0, ra1.8a"},
        {"fadd.unpack16b r0, r1, ra2", "fadd r0, r1, ra2.16b"},
        {"fmul.unpack8d r0, r4, r1", "fmul r0, r4.8d, r1"},
        {"add.pack8as.unpack16a ra5, ra1, r2", "add ra5.8as, ra1.16a, r2"},
        /* vc4asm's other names (Parser.tables.cpp opcodeMap, regMap, extMap):
         * Broadcom's signal mnemonics, register names and carry conditions */
        {"break", "bkpt"}, {"tswitch", "thrsw"}, {"tend", "thrend"},
        {"waitscb", "sbwait"}, {"unlscb", "sbdone"}, {"lswitch", "lthrsw"},
        {"ldcvtlb", "loadcv"}, {"ldcotlb", "loadc"}, {"ldcoend", "ldcend"},
        {"ldaltlb", "loadam"},
        {"mov r0, element_number", "mov r0, elem_num"}, {"mov r0, qpu_number", "mov r0, qpu_num"},
        {"mov r0, quad_x", "mov r0, x_coord"}, {"mov r0, quad_y", "mov r0, y_coord"},
        {"mov r0, x_pixel_coord", "mov r0, x_coord"}, {"mov y_pixel_coord, r0", "mov y_coord, r0"},
        {"mov ms_flags, r0", "mov ms_mask, r0"}, {"mov r0, mutex_acquire", "mov r0, mutex"},
        {"mov mutex_release, r0", "mov mutex, r0"}, {"mov sfu_exp, r0", "mov exp, r0"},
        {"mov sfu_log, r0", "mov log, r0"}, {"mov sfu_recip, r0", "mov recip, r0"},
        {"mov sfu_recipsqrt, r0", "mov recipsqrt, r0"}, {"mov tlb_z, r0", "mov tlbz, r0"},
        {"mov tlb_colour_all, r0", "mov tlbc, r0"}, {"mov tlb_colour_ms, r0", "mov tlbm, r0"},
        {"mov tlb_alpha_mask, r0", "mov tlbam, r0"}, {"mov tlb_stencil, r0", "mov stencil, r0"},
        {"mov tmu0_s, r0", "mov t0s, r0"}, {"mov tmu0_t, r0", "mov t0t, r0"},
        {"mov tmu0_r, r0", "mov t0r, r0"}, {"mov tmu0_b, r0", "mov t0b, r0"},
        {"mov tmu1_s, r0", "mov t1s, r0"}, {"mov tmu1_t, r0", "mov t1t, r0"},
        {"mov tmu1_r, r0", "mov t1r, r0"}, {"mov tmu1_b, r0", "mov t1b, r0"},
        {"mov r0, uniform_read", "mov r0, unif"}, {"mov r0, varying_read", "mov r0, vary"},
        {"mov r0, vpm_read", "mov r0, vpm"}, {"mov vpm_write, r0", "mov vpm, r0"},
        {"mov vpm_ld_addr, r0", "mov vr_addr, r0"}, {"mov vpm_st_addr, r0", "mov vw_addr, r0"},
        {"mov r0, vpm_ld_busy", "mov r0, vr_busy"}, {"mov r0, vpm_st_busy", "mov r0, vw_busy"},
        {"mov r0, vpm_ld_wait", "mov r0, vr_wait"}, {"mov r0, vpm_st_wait", "mov r0, vw_wait"},
        {"mov vpmvcd_rd_setup, r0", "mov vr_setup, r0"},
        {"mov vpmvcd_wr_setup, r0", "mov vw_setup, r0"},
        {"brr.allcs -, 8", "brr.allc -, 8"}, {"brr.allcc -, 8", "brr.allnc -, 8"},
        {"brr.anycs -, 8", "brr.anyc -, 8"}, {"brr.anycc -, 8", "brr.anync -, 8"},
        {"mov r0, sqrt(16.)", "mov r0, 4."},
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
        struct vc4_qpu_instr a, b;
        struct harness_diags d;
        struct vc4_diag_sink sink = harness_sink(&d);
        bool ok = vc4_qpu_assemble(same[i][0], 0, &a, &sink) == VC4_OK &&
                  vc4_qpu_assemble(same[i][1], 0, &b, &sink) == VC4_OK;
        CHECK_MSG(ok && vc4_qpu_encode(&a) == vc4_qpu_encode(&b), "\"%s\" != \"%s\" %s",
                  same[i][0], same[i][1], d.text);
    }
    static const char *const bad[] = {
        "nop.pack8a", "fadd.pack9a r0, r1, r2", "fadd.pack8a r0.8b, r1, r2",
        "mov quad_x, r0", "mov vpm_read, r0", "mov r0, vpm_write", /* one-way names */
        "fadd.unpack8a r0, r1, r2", "fadd.unpack8a r0, ra1.8b, r2",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct vc4_qpu_instr a;
        CHECK_MSG(vc4_qpu_assemble(bad[i], 0, &a, NULL) != VC4_OK, "\"%s\" assembled", bad[i]);
    }
}

static void test_vc4asm_branches(void)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof branches / sizeof *branches; i++) {
        const struct bvec *b = &branches[i];
        char src[512];
        uint32_t base;
        size_t at;
        if (b->target <= b->pc) {
            base = b->target;
            snprintf(src, sizeof src, ":L\n.rep i, %u\nnop\n.endr\n%s\n", (b->pc - b->target) / 8,
                     b->src);
            at = (b->pc - base) / 8;
        } else {
            base = b->pc;
            snprintf(src, sizeof src, "%s\n.rep i, %u\nnop\n.endr\n:L\nnop\n", b->src,
                     (b->target - b->pc) / 8 - 1);
            at = 0;
        }
        struct harness_diags d;
        struct vc4_asm_options o = {.sink = harness_sink(&d), .base_addr = base};
        struct vc4_asm *as = vc4_asm_create(&o);
        uint64_t want = word_of(b->lo, b->hi), got = ~want;
        size_t n = 0;
        const uint8_t *out = NULL;
        if (vc4_asm_source(as, "branch.qasm", src, strlen(src)) == VC4_OK)
            out = vc4_asm_output(as, &n);
        if (out && n >= (at + 1) * 8)
            got = vc4_qpu_load_le(out + at * 8);
        if (got != want) {
            report(b->src, want, got, d.text);
            bad++;
        }
        vc4_asm_destroy(as);
    }
    CHECK_EQ_INT(bad, 0);
}

static void test_vc4asm_other_build(void)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof other_build / sizeof *other_build; i++) {
        const struct build_vec *v = &other_build[i];
        struct vc4_qpu_instr in;
        struct harness_diags d;
        struct vc4_diag_sink sink = harness_sink(&d);
        uint64_t want = word_of(v->lo, v->hi), got = ~want;
        if (vc4_qpu_assemble(v->src, 0, &in, &sink) == VC4_OK)
            got = vc4_qpu_encode(&in);
        if (got != want) {
            report(v->src, want, got, d.text);
            bad++;
        }
        /* both forms compute the same: the destinations receive 0 */
        CHECK(word_of(v->other_lo, v->other_hi) != want);
    }
    CHECK_EQ_INT(bad, 0);
}

/*
 * vc4asm's sample/simple smitest (ALU operations and pack modes), as its
 * published listing (shader.c, 130 instructions) shows it: the source lines
 * are the listing's comments (RES_COUNT 45 and RES_COUNT2 24 are what its
 * vdw_setup words imply); the words are the listing's.  Assembled whole, with
 * vc4.qinc, labels, .rep, .int data and a backward brr.
 */
static const char smitest_src[] =
    ".include \"vc4.qinc\"\n"
    ".set RES_COUNT, 45\n"
    "shl r0, elem_num, 3;\n"
    "mov ra0, unif # vector count\n"
    "add ra1, r0, unif; # base address\n"
    "mov ra3, unif; # target address\n"
    "mov rb0, 16*2*4-4\n"
    ":next\n"
    "mov r2, vpm_setup(16, 1, v32(0,0))\n"
    "add vw_setup, r2, elem_num;\n"
    "add ra1, ra1, 4; mov t0s, ra1\n"
    "ldtmu0\n"
    "add ra1, ra1, rb0; mov t0s, ra1\n"
    "mov r0, r4; ldtmu0\n"
    "mov r1, r4\n"
    "fadd vpm, r0, r1 # Y0\n"
    "fsub vpm, r0, r1\n"
    "fmin vpm, r0, r1\n"
    "fmax vpm, r0, r1\n"
    "fminabs vpm, r0, r1 # Y4\n"
    "fmaxabs vpm, r0, r1\n"
    "ftoi vpm, r1\n"
    "itof vpm, r1\n"
    "add vpm, r0, r1 # Y8\n"
    "sub vpm, r0, r1\n"
    "shr vpm, r0, r1\n"
    "asr vpm, r0, r1\n"
    "ror vpm, r0, r1 # Y12\n"
    "shl vpm, r0, r1\n"
    "min vpm, r0, r1\n"
    "max vpm, r0, r1\n"
    "and vpm, r0, r1 # Y16\n"
    "or vpm, r0, r1\n"
    "xor vpm, r0, r1\n"
    "not vpm, r1\n"
    "clz vpm, r1 # Y20\n"
    "fmul vpm, r0, r1\n"
    "mul24 vpm, r0, r1\n"
    "v8muld vpm, r0, r1\n"
    "v8min vpm, r0, r1 # Y24\n"
    "v8max vpm, r0, r1\n"
    "v8adds vpm, r0, r1\n"
    "v8subs vpm, r0, r1\n"
    ".int 0x009e7040, 0x10020c27 # Anop, Y28\n"
    ".int 0x099e7040, 0x10020c27 # AddOp 9\n"
    ".int 0x0a9e7040, 0x10020c27 # AddOp 10\n"
    ".int 0x0b9e7040, 0x10020c27 # AddOp 11\n"
    ".int 0x199e7040, 0x10020c27 # AddOp 25, Y32\n"
    ".int 0x1a9e7040, 0x10020c27 # AddOp 26\n"
    ".int 0x1b9e7040, 0x10020c27 # AddOp 27\n"
    ".int 0x1c9e7040, 0x10020c27 # AddOp 28\n"
    ".int 0x1d9e7040, 0x10020c27 # AddOp 29, Y36\n"
    ".int 0x009e7001, 0x100049f0 # Mnop\n"
    "fmul vpm.8abcds, r0, r1\n"
    "mul24 vpm.8abcds, r0, r1\n"
    "v8muld vpm.8abcds, r0, r1 # Y40\n"
    "v8min vpm.8abcds, r0, r1\n"
    "v8adds vpm.8abcds, r0, r1\n"
    "v8subs vpm.8abcds, r0, r1\n"
    "add ra16.32s, r0, r0\n"
    "nop\n"
    "mov vpm, ra16\n"
    "mov r2, 16*4; mov r1, ra3\n"
    ".rep i, (RES_COUNT-1)/16\n"
    "mov vw_setup, vdw_setup_1((RES_COUNT-16)*4)\n"
    "mov vw_setup, vdw_setup_0(16, 16, dma_h32(16*i,0))\n"
    "add r1, r1, r2; mov vw_addr, r1\n"
    "mov -, vw_wait\n"
    ".endr\n"
    "mov vw_setup, vdw_setup_1(((RES_COUNT-1)&-16)*4)\n"
    "mov vw_setup, vdw_setup_0(16, ((RES_COUNT-1)&15)+1, dma_h32((RES_COUNT-1)&-16,0))\n"
    "mov vw_addr, r1\n"
    "sub.setf ra0, ra0, 1\n"
    "brr.anynz -, :next\n"
    "mov r2, RES_COUNT*16*4\n"
    "add ra3, ra3, r2\n"
    "mov -, vw_wait\n"
    ".set RES_COUNT2, 24\n"
    "shl r0, elem_num, 2;\n"
    "mov ra0, unif # vector count\n"
    "add ra1, r0, unif; # base address\n"
    "mov ra3, unif; # target address\n"
    "mov rb0, 16*4\n"
    ":next2\n"
    "mov r2, vpm_setup(16, 1, v32(0,0))\n"
    "add vw_setup, r2, elem_num;\n"
    "add ra1, ra1, rb0; mov t0s, ra1\n"
    "ldtmu0\n"
    "mov r0, r4\n"
    "nop; mov vpm.8abcds, r0\n"
    "nop; mov vpm.8as, r0\n"
    "nop; mov vpm.8bs, r0\n"
    "nop; mov vpm.8cs, r0\n"
    "nop; mov vpm.8ds, r0 # Y4\n"
    "mov ra16, 0xbbbbbbbb\n"
    "mov ra17, 0xbbbbbbbb\n"
    "mov ra16.16a, r0\n"
    "mov ra17.16b, r0\n"
    "fmin ra16.16a, r0,r0; mov vpm, ra16\n"
    "fmin ra17.16b, r0,r0; mov vpm, ra17\n"
    "mov ra16.8abcd, r0;  mov vpm, ra16\n"
    "mov ra17.8a, r0;     mov vpm, ra17 # Y8\n"
    "mov ra16.8b, r0;     mov vpm, ra16\n"
    "mov ra17.8c, r0;     mov vpm, ra17\n"
    "mov ra16.8d, r0;     mov vpm, ra16\n"
    "mov ra17.32s, r0;    mov vpm, ra17 # Y12\n"
    "mov ra16.16as, r0;   mov vpm, ra16\n"
    "mov ra17.16bs, r0;   mov vpm, ra17\n"
    "fmin ra16.16as, r0,r0; mov vpm, ra16\n"
    "fmin ra17.16bs, r0,r0; mov vpm, ra17 # Y16\n"
    "mov ra16.8abcds, r0; mov vpm, ra16\n"
    "mov ra17.8as, r0;    mov vpm, ra17\n"
    "mov ra16.8bs, r0;    mov vpm, ra16\n"
    "mov ra17.8cs, r0;    mov vpm, ra17 # Y20\n"
    "mov ra16.8ds, r0;    mov vpm, ra16\n"
    "mov vpm, ra17\n"
    "mov vpm, ra16\n"
    "mov r2, 16*4; mov r1, ra3\n"
    ".rep i, (RES_COUNT2-1)/16\n"
    "mov vw_setup, vdw_setup_1((RES_COUNT2-16)*4)\n"
    "mov vw_setup, vdw_setup_0(16, 16, dma_h32(16*i,0))\n"
    "add r1, r1, r2; mov vw_addr, r1\n"
    "mov -, vw_wait\n"
    ".endr\n"
    "mov vw_setup, vdw_setup_1(((RES_COUNT2-1)&-16)*4)\n"
    "mov vw_setup, vdw_setup_0(16, ((RES_COUNT2-1)&15)+1, dma_h32((RES_COUNT2-1)&-16,0))\n"
    "mov vw_addr, r1\n"
    "sub.setf ra0, ra0, 1\n"
    "brr.anynz -, :next2\n"
    "mov r2, RES_COUNT2*16*4\n"
    "add ra3, ra3, r2\n"
    "mov -, vw_wait\n"
    "thrend\n"
    "mov interrupt, 1;\n"
    "nop\n";

static const uint32_t smitest_words[] = {
    0x11983dc0, 0xd0020827, 0x15827d80, 0x10020027, 0x0c827180, 0x10020067, 0x15827d80, 0x100200e7,
    0x0000007c, 0xe0021027, 0x00001200, 0xe00208a7, 0x0c9a7580, 0x10021c67, 0x8c044df6, 0xd0024078,
    0x009e7000, 0xa00009e7, 0x8c040df6, 0x10024078, 0x159e7900, 0xa0020827, 0x159e7900, 0x10020867,
    0x019e7040, 0x10020c27, 0x029e7040, 0x10020c27, 0x039e7040, 0x10020c27, 0x049e7040, 0x10020c27,
    0x059e7040, 0x10020c27, 0x069e7040, 0x10020c27, 0x079e7240, 0x10020c27, 0x089e7240, 0x10020c27,
    0x0c9e7040, 0x10020c27, 0x0d9e7040, 0x10020c27, 0x0e9e7040, 0x10020c27, 0x0f9e7040, 0x10020c27,
    0x109e7040, 0x10020c27, 0x119e7040, 0x10020c27, 0x129e7040, 0x10020c27, 0x139e7040, 0x10020c27,
    0x149e7040, 0x10020c27, 0x159e7040, 0x10020c27, 0x169e7040, 0x10020c27, 0x179e7240, 0x10020c27,
    0x189e7240, 0x10020c27, 0x209e7001, 0x100049f0, 0x409e7001, 0x100049f0, 0x609e7001, 0x100049f0,
    0x809e7001, 0x100049f0, 0xa09e7001, 0x100049f0, 0xc09e7001, 0x100049f0, 0xe09e7001, 0x100049f0,
    0x009e7040, 0x10020c27, 0x099e7040, 0x10020c27, 0x0a9e7040, 0x10020c27, 0x0b9e7040, 0x10020c27,
    0x199e7040, 0x10020c27, 0x1a9e7040, 0x10020c27, 0x1b9e7040, 0x10020c27, 0x1c9e7040, 0x10020c27,
    0x1d9e7040, 0x10020c27, 0x009e7001, 0x100049f0, 0x209e7001, 0x11b049f0, 0x409e7001, 0x11b049f0,
    0x609e7001, 0x11b049f0, 0x809e7001, 0x11b049f0, 0xc09e7001, 0x11b049f0, 0xe09e7001, 0x11b049f0,
    0x0c9e7000, 0x10820427, 0x009e7000, 0x100009e7, 0x15427d80, 0x10020c27, 0x870e6ff6, 0xd00248a1,
    0xc0000074, 0xe0021c67, 0x88104000, 0xe0021c67, 0x8c9e7289, 0x10024872, 0x159f2fc0, 0x100009e7,
    0xc0000074, 0xe0021c67, 0x88104800, 0xe0021c67, 0x8c9e7289, 0x10024872, 0x159f2fc0, 0x100009e7,
    0xc0000080, 0xe0021c67, 0x880d5000, 0xe0021c67, 0x159e7240, 0x10021ca7, 0x0d001dc0, 0xd0022027,
    0xfffffdc8, 0xf03809e7, 0x00000b40, 0xe00208a7, 0x0c0e7c80, 0x100200e7, 0x159f2fc0, 0x100009e7,
    0x11982dc0, 0xd0020827, 0x15827d80, 0x10020027, 0x0c827180, 0x10020067, 0x15827d80, 0x100200e7,
    0x00000040, 0xe0021027, 0x00001200, 0xe00208a7, 0x0c9a7580, 0x10021c67, 0x8c040df6, 0x10024078,
    0x009e7000, 0xa00009e7, 0x159e7900, 0x10020827, 0x809e7000, 0x11b049f0, 0x809e7000, 0x114049f0,
    0x809e7000, 0x115049f0, 0x809e7000, 0x116049f0, 0x809e7000, 0x117049f0, 0xbbbbbbbb, 0xe0020427,
    0xbbbbbbbb, 0xe0020467, 0x159e7000, 0x10120427, 0x159e7000, 0x10220467, 0x83427036, 0x10124430,
    0x83467036, 0x10224470, 0x95427036, 0x10324430, 0x95467036, 0x10424470, 0x95427036, 0x10524430,
    0x95467036, 0x10624470, 0x95427036, 0x10724430, 0x95467036, 0x10824470, 0x95427036, 0x10924430,
    0x95467036, 0x10a24470, 0x83427036, 0x10924430, 0x83467036, 0x10a24470, 0x95427036, 0x10b24430,
    0x95467036, 0x10c24470, 0x95427036, 0x10d24430, 0x95467036, 0x10e24470, 0x95427036, 0x10f24430,
    0x15467d80, 0x10020c27, 0x15427d80, 0x10020c27, 0x870e6ff6, 0xd00248a1, 0xc0000020, 0xe0021c67,
    0x88104000, 0xe0021c67, 0x8c9e7289, 0x10024872, 0x159f2fc0, 0x100009e7, 0xc0000040, 0xe0021c67,
    0x88084800, 0xe0021c67, 0x159e7240, 0x10021ca7, 0x0d001dc0, 0xd0022027, 0xfffffe90, 0xf03809e7,
    0x00000600, 0xe00208a7, 0x0c0e7c80, 0x100200e7, 0x159f2fc0, 0x100009e7, 0x009e7000, 0x300009e7,
    0x00000001, 0xe00209a7, 0x009e7000, 0x100009e7,
};

static void test_vc4asm_smitest(void)
{
    struct harness_diags d;
    struct vc4_asm_options o = {.sink = harness_sink(&d)};
    struct vc4_asm *as = vc4_asm_create(&o);
    enum vc4_status st = vc4_asm_source(as, "smitest.qasm", smitest_src, sizeof smitest_src - 1);
    CHECK_MSG(st == VC4_OK, "smitest: %s", d.text);
    size_t n = 0;
    const uint8_t *out = vc4_asm_output(as, &n);
    size_t words = sizeof smitest_words / sizeof *smitest_words / 2;
    CHECK_EQ_INT(n, words * 8);
    int bad = 0;
    for (size_t i = 0; out && i < words && (i + 1) * 8 <= n; i++) {
        uint64_t want = word_of(smitest_words[2 * i], smitest_words[2 * i + 1]);
        uint64_t got = vc4_qpu_load_le(out + i * 8);
        if (got != want) {
            char src[32];
            snprintf(src, sizeof src, "smitest word %zu", i);
            report(src, want, got, "");
            bad++;
        }
    }
    CHECK_EQ_INT(bad, 0);
    vc4_asm_destroy(as);
}

/* vc4.qinc helpers as vc4asm programs call them (rpi_shader.ref.c, a VPM fill
 * loop): the values vc4asm's listings show. */
static void test_vc4asm_qinc(void)
{
    static const char src[] =
        ".include \"vc4.qinc\"\n"
        "mov r1, vdw_setup_1(0)\n"
        "mov r1, vpm_setup(0, 4, h8p(0, 0))\n"
        "mov r1, vpm_setup(0, 2, h16p(0, 0))\n"
        "mov r1, vdw_setup_0(0, 0, dma_h8p(0,0,0))\n"
        "ldi r1,vpm_setup(0, 1, h32(0))\n"
        "ldi r1,vdw_setup_0(1,16,dma_h32(0,0))\n"
        "mov -,srel(0)\n"
        "mov -,sacq(0)\n"
        "mov r2, vpm_setup(16, 1, v32(0,0))\n";
    static const uint32_t want[] = {
        0xc0000000, 0xe0020867, 0x00004800, 0xe0020867, 0x00002900, 0xe0020867,
        0x80004004, 0xe0020867, 0x00001a00, 0xe0020867, 0x80904000, 0xe0020867,
        0x00000000, 0xe80009e7, 0x00000010, 0xe80009e7, 0x00001200, 0xe00208a7,
    };
    struct harness_diags d;
    struct vc4_asm_options o = {.sink = harness_sink(&d)};
    struct vc4_asm *as = vc4_asm_create(&o);
    CHECK_MSG(vc4_asm_source(as, "qinc.qasm", src, sizeof src - 1) == VC4_OK, "%s", d.text);
    size_t n = 0;
    const uint8_t *out = vc4_asm_output(as, &n);
    size_t words = sizeof want / sizeof *want / 2;
    CHECK_EQ_INT(n, words * 8);
    for (size_t i = 0; out && i < words && (i + 1) * 8 <= n; i++)
        CHECK_EQ_U64(vc4_qpu_load_le(out + i * 8), word_of(want[2 * i], want[2 * i + 1]));
    vc4_asm_destroy(as);
}

TEST_LIST(test_vc4asm_lines, test_vc4asm_rules, test_vc4asm_dis_forms, test_vc4asm_spellings,
          test_vc4asm_branches, test_vc4asm_other_build, test_vc4asm_smitest,
          test_vc4asm_qinc)
