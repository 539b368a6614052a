/*
 * An example adapter for `ptxcheck conform --exec`: a small "emulator" of
 * five PTX instructions that reads one vector a line on standard input
 * and answers each on standard output.
 *
 *   in:  bfe.u32 a=0x12345678 b=0x00000004 c=0x00000008
 *   out: d=0x00000067
 *
 * An instruction it does not have is answered `unimplemented`, a division
 * it refuses `trap` with a message. It has two faults on purpose, for the
 * suite to find:
 *   - bfe.u32 takes the length modulo 32, so a length of 32 or more
 *     extracts too few bits (a bug);
 *   - div.s32 divides with the host's own division, so the process dies
 *     (SIGFPE on x86) on a zero divisor and on -2^31 / -1, where PTX
 *     defines the value.
 *
 * Build and run:
 *   cc -O0 -o adapter examples/adapter.c
 *   ptxcheck vectors all --output suite
 *   ptxcheck conform suite --exec ./adapter
 *
 * Every answer is flushed as it is written (stdout is line-buffered), so
 * that when the process dies, the answers it gave before are not lost.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUTS 64

struct vector {
    char variant[64];
    int count;
    char name[MAX_INPUTS][16];
    uint64_t value[MAX_INPUTS];
};

/* The value of the input called `name`; every variant below names its own. */
static uint64_t input(const struct vector *v, const char *name) {
    for (int i = 0; i < v->count; i++)
        if (strcmp(v->name[i], name) == 0)
            return v->value[i];
    fprintf(stderr, "adapter: %s has no input %s\n", v->variant, name);
    exit(2);
}

/* `VARIANT name=0xHEX ...` into `v`; 0 when the line is not one. The
 * variant is every word before the first `name=value` (shfl's forms with
 * a predicate are named `shfl.up.b32 d|p`). */
static int parse(char *line, struct vector *v) {
    char *save = NULL;
    v->variant[0] = '\0';
    v->count = 0;
    for (char *word = strtok_r(line, " \t\r\n", &save); word != NULL; word = strtok_r(NULL, " \t\r\n", &save)) {
        char *eq = strchr(word, '=');
        if (eq == NULL) {
            if (v->count > 0 || strlen(v->variant) + strlen(word) + 2 > sizeof v->variant)
                return 0;
            if (v->variant[0] != '\0')
                strcat(v->variant, " ");
            strcat(v->variant, word);
            continue;
        }
        if (v->count == MAX_INPUTS || eq - word >= (long)sizeof v->name[0])
            return 0;
        memcpy(v->name[v->count], word, eq - word);
        v->name[v->count][eq - word] = '\0';
        v->value[v->count] = strtoull(eq + 1, NULL, 16);
        v->count++;
    }
    return v->variant[0] != '\0';
}

static void answer(const struct vector *v) {
    const char *op = v->variant;
    if (strcmp(op, "add.u32") == 0 || strcmp(op, "add.s32") == 0) {
        uint32_t d = (uint32_t)input(v, "a") + (uint32_t)input(v, "b");
        printf("d=0x%08x\n", d);
    } else if (strcmp(op, "div.u32") == 0) {
        uint32_t a = (uint32_t)input(v, "a"), b = (uint32_t)input(v, "b");
        if (b == 0)
            printf("trap division by zero\n");
        else
            printf("d=0x%08x\n", a / b);
    } else if (strcmp(op, "div.s32") == 0) {
        /* The host's division, as a naive emulator does: volatile, so the
         * compiler keeps the instruction that faults. */
        volatile int32_t a = (int32_t)input(v, "a"), b = (int32_t)input(v, "b");
        volatile int32_t d = a / b;
        printf("d=0x%08x\n", (uint32_t)d);
    } else if (strcmp(op, "bfe.u32") == 0) {
        uint32_t a = (uint32_t)input(v, "a");
        uint32_t pos = (uint32_t)input(v, "b") & 0xff, len = (uint32_t)input(v, "c") & 0xff;
        uint32_t d = 0;
        if (len != 0 && pos < 32) {
            /* The bug: the length modulo 32, where it should saturate. */
            uint32_t n = len & 31;
            uint32_t mask = (1u << n) - 1;
            d = (a >> pos) & mask;
        }
        printf("d=0x%08x\n", d);
    } else if (strncmp(op, "mad24.", 6) == 0) {
        printf("unimplemented mad24 is not in this emulator\n");
    } else {
        printf("unimplemented\n");
    }
}

int main(void) {
    char line[512];
    struct vector v;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin) != NULL) {
        if (!parse(line, &v)) {
            fprintf(stderr, "adapter: cannot read the line: %s", line);
            return 2;
        }
        answer(&v);
    }
    return 0;
}
