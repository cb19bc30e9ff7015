/*
 * mailbox_prog.c - a GPU-compute host program written the way Pi programs
 * are (hello_fft style), using only the mailbox.h functions: allocate,
 * lock, map, write QPU code and uniforms, execute_qpu on 12 QPUs, read the
 * results back and check them.  Prints "ok" and exits 0 on success.
 */
#include <stdio.h>
#include <string.h>

#include "mailbox.h"

#include "mailbox_code.inc"

#define NUM_QPUS 12
#define MEM_FLAG_L1_NONALLOCATING 0xC
#define BUS_TO_PHYS(x) ((x) & ~0xC0000000u)

#define OFF_CODE 0x000
#define OFF_UNIFS 0x200
#define OFF_CONTROL 0x400
#define OFF_OUT 0x1000
#define SIZE 0x2000

int main(void)
{
    int mb = mbox_open();
    if (mb < 0) {
        fprintf(stderr, "mbox_open failed\n");
        return 1;
    }
    if (qpu_enable(mb, 1)) {
        fprintf(stderr, "qpu_enable failed\n");
        return 1;
    }
    unsigned handle = mem_alloc(mb, SIZE, 4096, MEM_FLAG_L1_NONALLOCATING);
    unsigned bus = handle ? mem_lock(mb, handle) : 0;
    unsigned *arm = bus ? mapmem(BUS_TO_PHYS(bus), SIZE) : NULL;
    if (!arm) {
        fprintf(stderr, "allocation failed\n");
        return 1;
    }
    memset(arm, 0, SIZE);
    memcpy(arm + OFF_CODE / 4, mailbox_qpu_code, sizeof mailbox_qpu_code);
    for (unsigned i = 0; i < NUM_QPUS; i++) {
        arm[OFF_UNIFS / 4 + 2 * i] = 1000 * i + 7;                 /* value */
        arm[OFF_UNIFS / 4 + 2 * i + 1] = bus + OFF_OUT + 64 * i;   /* output row */
        arm[OFF_CONTROL / 4 + 2 * i] = bus + OFF_UNIFS + 8 * i;    /* uniforms */
        arm[OFF_CONTROL / 4 + 2 * i + 1] = bus + OFF_CODE;         /* code */
    }
    unsigned r = execute_qpu(mb, NUM_QPUS, bus + OFF_CONTROL, 1, 5000);
    if (r) {
        fprintf(stderr, "execute_qpu returned 0x%08x\n", r);
        return 1;
    }
    int bad = 0;
    unsigned seen = 0;
    for (unsigned i = 0; i < NUM_QPUS; i++) {
        const unsigned *row = arm + OFF_OUT / 4 + 16 * i;
        unsigned qpu = row[0] - (1000 * i + 7);
        if (qpu >= NUM_QPUS)
            bad = 1;
        else
            seen |= 1u << qpu;
        for (unsigned e = 0; e < 16; e++)
            if (row[e] != 1000 * i + 7 + qpu + e) {
                fprintf(stderr, "program %u element %u: 0x%08x\n", i, e, row[e]);
                bad = 1;
            }
        printf("program %2u ran on QPU %2u: %u..%u\n", i, qpu, row[0], row[15]);
    }
    unmapmem(arm, SIZE);
    mem_unlock(mb, handle);
    mem_free(mb, handle);
    qpu_enable(mb, 0);
    mbox_close(mb);
    if (bad)
        return 1;
    printf("ok: %u programs, QPU mask 0x%03x\n", NUM_QPUS, seen);
    return 0;
}
