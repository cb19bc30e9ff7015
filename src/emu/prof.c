/*
 * prof.c - the QPU code profiler's samples (prof.h).
 */
#include "emu/prof.h"

#include <string.h>

#include "emu/qpu.h"

#define SEED 0x9E3779B9u        /* the gaps' sequence starts here (any non-zero word) */
#define MIN_SLOTS 256u
#define MAX_SLOTS (1u << 20)    /* 1 M instruction addresses: far beyond any program */

void vc4_prof_init(struct vc4_prof *p, bool on)
{
    *p = (struct vc4_prof){.on = on};
}

void vc4_prof_fini(struct vc4_prof *p, const struct vc4_allocator *alloc)
{
    vc4_free(alloc, p->slots);
    p->slots = NULL;
    p->cap = p->used = 0;
}

/* The next gap: 31 .. 91 cycles, 61 on average (xorshift32). */
static uint64_t gap(struct vc4_prof *p)
{
    uint32_t x = p->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    p->rng = x;
    return 1u + VC4_PROF_MEAN_PERIOD / 2u + x % VC4_PROF_MEAN_PERIOD;
}

void vc4_prof_reset(struct vc4_prof *p, uint64_t now)
{
    if (p->slots)
        memset(p->slots, 0, p->cap * sizeof *p->slots);
    p->used = 0;
    p->samples = p->dropped = 0;
    p->rng = SEED;
    p->next = now + gap(p);
}

void vc4_prof_advance(struct vc4_prof *p)
{
    p->next += gap(p);
}

static size_t home(uint32_t pc, uint64_t word, size_t cap)
{
    uint64_t h = ((uint64_t)(pc >> 3) ^ word) * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 32) & (cap - 1);
}

/* The slot for (pc, word) in a table of cap slots (an empty one if it has
 * none).  The word is part of the key: code loaded again at an address
 * (a GL program's shaders come and go in buffers) is another instruction. */
static struct vc4_prof_slot *find(struct vc4_prof_slot *slots, size_t cap, uint32_t pc, uint64_t word)
{
    size_t i = home(pc, word, cap);
    while (slots[i].used && (slots[i].pc != pc || slots[i].word != word))
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

/* Room for one more address (the table at most half full); false when it
 * cannot grow. */
static bool room(struct vc4_prof *p, const struct vc4_allocator *alloc)
{
    if (2 * (p->used + 1) <= p->cap)
        return true;
    size_t cap = p->cap ? 2 * p->cap : MIN_SLOTS;
    if (cap > MAX_SLOTS)
        return false;
    struct vc4_prof_slot *s = vc4_calloc(alloc, cap, sizeof *s);
    if (!s)
        return false;
    for (size_t i = 0; i < p->cap; i++)
        if (p->slots[i].used)
            *find(s, cap, p->slots[i].pc, p->slots[i].word) = p->slots[i];
    vc4_free(alloc, p->slots);
    p->slots = s;
    p->cap = cap;
    return true;
}

void vc4_prof_sample(struct vc4_prof *p, const struct vc4_allocator *alloc, const struct vc4_qpu *q,
                     uint64_t word)
{
    p->samples++;
    struct vc4_prof_slot *s = p->cap ? find(p->slots, p->cap, q->pc, word) : NULL;
    if (!s || !s->used) {
        if (!room(p, alloc)) {
            p->dropped++;
            return;
        }
        s = find(p->slots, p->cap, q->pc, word); /* (the table may have moved) */
        *s = (struct vc4_prof_slot){.pc = q->pc, .used = true, .word = word, .kind = p->kind};
        p->used++;
    }
    /* (step() counts a cycle as stalled while stall_until >= the cycle's
     * time, which is q->time + 1 here) */
    if (q->stall_until > q->time)
        s->stalled++;
    else if (q->state == VC4_EMU_QPU_BLOCKED)
        s->blocked++;
    else
        s->issuing++;
}
