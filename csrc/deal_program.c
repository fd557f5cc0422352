/* A dealer-script expression compiled to a small stack program, run on every deal of a batch.
 *
 * The program (built by cardlab/bridge/dealer/program.py) is an int64 array of instructions of
 * four words (op, a, b, c).  Values are int64, as the script language says; + - * and unary -
 * are checked (cl_*_overflow, portable.h) and / % by zero are caught: the kernel stops and reports
 * the instruction, and the Python side names the expression.  && || and ?: jump, so the right
 * side is evaluated only for the deals that need it, as in the C program.  Features are table
 * lookups on the suit masks of csrc/deal.c (tables of 8192 int64 per suit holding, shape tables
 * of 14^4 bytes).  The GIL is released while it runs.
 */
#include "core.h"
#include "deal.h"

enum {
    OP_CONST, OP_SUIT, OP_HAND, OP_SHAPE, OP_CARD, OP_NEG, OP_NOT, OP_ADD, OP_SUB, OP_MUL, OP_DIV,
    OP_MOD, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_JUMP, OP_AND, OP_OR, OP_IF, OP_TRUTH,
    OP_COUNT
};

#define STACK 64

/* run_program(masks, n, code, tables, shapes, out, rows) -> (status, instruction)
 * masks (4, 4, n) uint16; out int64 per evaluated deal; rows: int32 deal indexes to evaluate
 * (empty: all n).  status 0 ok, 1 overflow, 2 division by zero. */
static PyObject *run_program(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer mb, cb, tb, sb, ob, rb;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "y*ny*y*y*w*y*", &mb, &n, &cb, &tb, &sb, &ob, &rb))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t ncode = cb.len / 32, ntables = tb.len / (8 * 8192), nshapes = sb.len / (14 * 14 * 14 * 14);
    Py_ssize_t count = rb.len ? rb.len / 4 : n;
    const int64_t *code = (const int64_t *)cb.buf;
    CL_FAIL_IF(mb.len != 32 * n || cb.len % 32 || ob.len != 8 * count || rb.len % 4,
               "run_program: buffers do not match n");
    /* check the program once: every jump inside, every table there, the stack bounded */
    for (Py_ssize_t k = 0; k < ncode; k++) {
        const int64_t *ins = code + 4 * k;
        int bad = ins[0] < 0 || ins[0] >= OP_COUNT;
        if (ins[0] == OP_SUIT || ins[0] == OP_HAND || ins[0] == OP_SHAPE || ins[0] == OP_CARD)
            bad |= ins[1] < 0 || ins[1] > 3;
        if (ins[0] == OP_SUIT)
            bad |= ins[2] < 0 || ins[2] > 3 || ins[3] < 0 || ins[3] >= ntables;
        if (ins[0] == OP_HAND)
            bad |= ins[2] < 0 || ins[2] >= ntables;
        if (ins[0] == OP_SHAPE)
            bad |= ins[2] < 0 || ins[2] >= nshapes;
        if (ins[0] == OP_CARD)
            bad |= ins[2] < 0 || ins[2] > 51;
        if (ins[0] == OP_JUMP || ins[0] == OP_AND || ins[0] == OP_OR || ins[0] == OP_IF)
            bad |= ins[1] <= k || ins[1] > ncode;
        if (bad) {
            PyErr_Format(PyExc_ValueError, "run_program: bad instruction %zd", k);
            goto done;
        }
    }
    /* the stack depth at every instruction (jumps only go forward, so one pass finds it): each
     * push within STACK, each pop from a value there, the same depth on every path, one value at
     * the end (an empty program has none) */
    int *depth = PyMem_Malloc(sizeof(int) * (size_t)(ncode + 1));
    if (depth == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k <= ncode; k++)
        depth[k] = -1;
    depth[0] = 0;
    Py_ssize_t wrong = -1;
    for (Py_ssize_t k = 0; k < ncode && wrong < 0; k++) {
        const int64_t *ins = code + 4 * k;
        int d = depth[k], next = -1, target = -1;
        if (d < 0)
            continue; /* not reached */
        switch (ins[0]) {
        case OP_CONST: case OP_SUIT: case OP_HAND: case OP_SHAPE: case OP_CARD: next = d + 1; break;
        case OP_NEG: case OP_NOT: case OP_TRUTH: next = d >= 1 ? d : -1; break;
        case OP_JUMP: target = d; break;
        case OP_AND: case OP_OR: next = d >= 1 ? d - 1 : -1; target = d >= 1 ? d : -1; break;
        case OP_IF: next = target = d >= 1 ? d - 1 : -1; break;
        default: next = d >= 2 ? d - 1 : -1; break; /* the binary operators */
        }
        int jumps = ins[0] == OP_JUMP || ins[0] == OP_AND || ins[0] == OP_OR || ins[0] == OP_IF;
        if ((ins[0] != OP_JUMP && next < 0) || next > STACK || (jumps && target < 0)) {
            wrong = k;
            break;
        }
        if (next >= 0) {
            if (depth[k + 1] >= 0 && depth[k + 1] != next)
                wrong = k;
            depth[k + 1] = next;
        }
        if (target >= 0) {
            if (depth[ins[1]] >= 0 && depth[ins[1]] != target)
                wrong = k;
            depth[ins[1]] = target;
        }
    }
    int end_depth = depth[ncode];
    PyMem_Free(depth);
    if (wrong >= 0 || end_depth != 1) {
        PyErr_Format(PyExc_ValueError, "run_program: the program's stack is unbalanced at instruction %zd",
                     wrong >= 0 ? wrong : ncode);
        goto done;
    }
    const uint16_t *masks = (const uint16_t *)mb.buf;
    const int64_t *tables = (const int64_t *)tb.buf;
    const uint8_t *shapes = (const uint8_t *)sb.buf;
    const int32_t *rows = (const int32_t *)rb.buf;
    int64_t *out = (int64_t *)ob.buf;
    int status = 0;
    Py_ssize_t where = -1;

    Py_BEGIN_ALLOW_THREADS
    int64_t stack[STACK];
    for (Py_ssize_t r = 0; r < count && !status; r++) {
        Py_ssize_t i = rb.len ? rows[r] : r;
        if (i < 0 || i >= n) {
            status = 3;
            break;
        }
        int sp = 0;
        for (Py_ssize_t k = 0; k < ncode;) {
            const int64_t *ins = code + 4 * k;
            int64_t a, b, v;
            switch (ins[0]) {
            case OP_CONST: stack[sp++] = ins[1]; k++; break;
            case OP_SUIT:
                stack[sp++] = tables[ins[3] * 8192 + (masks[(ins[1] * 4 + ins[2]) * n + i] & 0x1FFF)];
                k++;
                break;
            case OP_HAND: {
                const uint16_t *m = masks + ins[1] * 4 * n + i;
                const int64_t *t = tables + ins[2] * 8192;
                stack[sp++] = t[m[0] & 0x1FFF] + t[m[n] & 0x1FFF] + t[m[2 * n] & 0x1FFF] + t[m[3 * n] & 0x1FFF];
                k++;
            } break;
            case OP_SHAPE: {
                const uint16_t *m = masks + ins[1] * 4 * n + i;
                stack[sp++] = shapes[ins[2] * (14 * 14 * 14 * 14) + shape_key(m[0], m[n], m[2 * n], m[3 * n])];
                k++;
            } break;
            case OP_CARD:
                stack[sp++] = (masks[(ins[1] * 4 + (ins[2] & 3)) * n + i] >> (ins[2] >> 2)) & 1;
                k++;
                break;
            case OP_NEG:
                if (cl_sub_overflow((int64_t)0, stack[sp - 1], &v)) {
                    status = 1;
                    where = k;
                    goto stop;
                }
                stack[sp - 1] = v;
                k++;
                break;
            case OP_NOT: stack[sp - 1] = stack[sp - 1] == 0; k++; break;
            case OP_TRUTH: stack[sp - 1] = stack[sp - 1] != 0; k++; break;
            case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD:
            case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
                b = stack[--sp];
                a = stack[sp - 1];
                switch (ins[0]) {
                case OP_ADD: status = cl_add_overflow(a, b, &v); break;
                case OP_SUB: status = cl_sub_overflow(a, b, &v); break;
                case OP_MUL: status = cl_mul_overflow(a, b, &v); break;
                case OP_DIV: case OP_MOD:
                    if (b == 0) {
                        status = 2;
                        break;
                    }
                    if (b == -1 && a == INT64_MIN) {
                        status = ins[0] == OP_DIV;
                        v = 0;
                        break;
                    }
                    v = ins[0] == OP_DIV ? a / b : a % b; /* C: toward zero, the dividend's sign */
                    break;
                case OP_EQ: v = a == b; break;
                case OP_NE: v = a != b; break;
                case OP_LT: v = a < b; break;
                case OP_LE: v = a <= b; break;
                case OP_GT: v = a > b; break;
                default: v = a >= b; break;
                }
                if (status) {
                    where = k;
                    goto stop;
                }
                stack[sp - 1] = v;
                k++;
                break;
            case OP_JUMP: k = ins[1]; break;
            case OP_AND: /* false: the value is 0 and the right side is skipped */
                if (stack[sp - 1] == 0) {
                    k = ins[1];
                } else {
                    sp--;
                    k++;
                }
                break;
            case OP_OR: /* the left side is already 0 or 1 */
                if (stack[sp - 1] != 0) {
                    k = ins[1];
                } else {
                    sp--;
                    k++;
                }
                break;
            case OP_IF:
                k = stack[--sp] ? k + 1 : ins[1];
                break;
            default: status = 3; goto stop;
            }
        }
        out[r] = stack[0];
    }
stop:
    Py_END_ALLOW_THREADS
    CL_FAIL_IF(status == 3, "run_program: a row index outside the batch");
    result = Py_BuildValue("(in)", status, where);
done:
    CL_RELEASE(&mb, &cb, &tb, &sb, &ob, &rb);
    return result;
}

CL_METHODS(deal_program,
    CL_METHOD(run_program, "run_program(masks, n, code, tables, shapes, out, rows) -> (status, instruction)."));
