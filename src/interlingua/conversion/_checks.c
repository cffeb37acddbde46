/* The checks the fused pair converters and `reading.read_json` make of every value they read,
 * in C: built beside the mypyc modules when a C compiler is there. Each has a Python twin that
 * answers the same (the pure-Python wheel, a checkout), and the tests compare the two:
 *
 *   clean(text)                    fused_checks._python_clean: ASCII or no lone surrogate
 *   word(text, marks, most)        fused_checks._word: 1..most ASCII letters, digits or marks
 *   plain(value, depth, limit)     fused_checks._plain: plain JSON with clean strings
 *   undoubted(value, data, limit)  reading._undoubted: no key given twice in the text
 *
 * and one record the passes make of what they lose:
 *
 *   add_loss(losses, kind, pointer, code, reason, part_type)
 *                                  fused_checks._python_add_loss: losses.append(kind(...))
 *
 * Compiled Python made each a chain of generic calls (a `str.replace` per mark, a method call
 * per count, a boxed call per item of a walk): in C each is one loop (callgrind, the long
 * openai-chat -> anthropic pass).
 *
 * A str stores one code point per unit of 1, 2 or 4 bytes, the width its largest code point
 * needs; a surrogate needs 2, so a 1-byte string holds none, and a wider one is scanned
 * without branching on each unit (the loop vectorises), where encoding it would write it out.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

static int
holds_surrogate(PyObject *text)
{
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    unsigned int found = 0;
    switch (PyUnicode_KIND(text)) {
    case PyUnicode_2BYTE_KIND: {
        const Py_UCS2 *units = PyUnicode_2BYTE_DATA(text);
        for (Py_ssize_t i = 0; i < length; i++) {
            found |= (units[i] & 0xF800u) == 0xD800u;
        }
        break;
    }
    case PyUnicode_4BYTE_KIND: {
        const Py_UCS4 *units = PyUnicode_4BYTE_DATA(text);
        for (Py_ssize_t i = 0; i < length; i++) {
            found |= (units[i] & 0xFFFFF800u) == 0xD800u;
        }
        break;
    }
    default:
        break;
    }
    return found != 0;
}

/* 0 when `text` is a str ready to read, else -1 with an exception set. */
static int
ready_str(PyObject *text, const char *who)
{
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "%s() takes a str, not %.100s", who, Py_TYPE(text)->tp_name);
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) { /* a legacy string built by the old API */
        return -1;
    }
#endif
    return 0;
}

/* What fused_checks.clean asks: ASCII, or no lone surrogate. */
static int
clean(PyObject *text)
{
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) {
        PyErr_Clear();
        return 0;
    }
#endif
    return PyUnicode_IS_ASCII(text) || !holds_surrogate(text);
}

static PyObject *
clean_str(PyObject *module, PyObject *text)
{
    if (ready_str(text, "clean") < 0) {
        return NULL;
    }
    return PyBool_FromLong(PyUnicode_IS_ASCII(text) || !holds_surrogate(text));
}

static PyObject *
word(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "word() takes a str, its marks and a length");
        return NULL;
    }
    PyObject *text = args[0];
    if (ready_str(text, "word") < 0 || ready_str(args[1], "word") < 0) {
        return NULL;
    }
    Py_ssize_t most = PyLong_AsSsize_t(args[2]);
    if (most == -1 && PyErr_Occurred()) {
        return NULL;
    }
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    if (length < 1 || length > most || !PyUnicode_IS_ASCII(text)) {
        Py_RETURN_FALSE;
    }
    Py_ssize_t marks_length;
    const char *marks = PyUnicode_AsUTF8AndSize(args[1], &marks_length);
    if (marks == NULL) {
        return NULL;
    }
    const unsigned char *units = PyUnicode_1BYTE_DATA(text);
    for (Py_ssize_t i = 0; i < length; i++) {
        unsigned char unit = units[i];
        if ((unit >= 'a' && unit <= 'z') || (unit >= 'A' && unit <= 'Z') ||
            (unit >= '0' && unit <= '9')) {
            continue;
        }
        if (memchr(marks, unit, (size_t)marks_length) == NULL) {
            Py_RETURN_FALSE;
        }
    }
    Py_RETURN_TRUE;
}

/* fused_checks._plain: 1 yes, 0 no. */
static int
plain_value(PyObject *value, Py_ssize_t depth, Py_ssize_t limit)
{
    if (PyDict_CheckExact(value)) {
        if (depth >= limit) {
            return 0;
        }
        Py_ssize_t at = 0;
        PyObject *key, *item;
        while (PyDict_Next(value, &at, &key, &item)) {
            if (!PyUnicode_CheckExact(key) || !clean(key) || !plain_value(item, depth + 1, limit)) {
                return 0;
            }
        }
        return 1;
    }
    if (PyUnicode_CheckExact(value)) {
        return clean(value);
    }
    if (PyList_CheckExact(value)) {
        if (depth >= limit) {
            return 0;
        }
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(value); i++) {
            if (!plain_value(PyList_GET_ITEM(value, i), depth + 1, limit)) {
                return 0;
            }
        }
        return 1;
    }
    if (PyLong_CheckExact(value)) { /* bit_length() < 64 */
        int overflow = 0;
        long long number = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (number == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        return overflow == 0 && number != LLONG_MIN;
    }
    if (PyFloat_CheckExact(value)) {
        return isfinite(PyFloat_AS_DOUBLE(value));
    }
    return value == Py_None || PyBool_Check(value);
}

static PyObject *
plain(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "plain() takes a value, its depth and the limit");
        return NULL;
    }
    Py_ssize_t depth = PyLong_AsSsize_t(args[1]);
    Py_ssize_t limit = PyLong_AsSsize_t(args[2]);
    if ((depth == -1 || limit == -1) && PyErr_Occurred()) {
        return NULL;
    }
    return PyBool_FromLong(plain_value(args[0], depth, limit));
}

/* Whether `value` is an int outside what a 64-bit reader holds ([-2**63, 2**64)): the hooked
 * reading then reads the text again, applying Python's own limit on an integer's digits. */
static int
past_64_bits(PyObject *value)
{
    if (!PyLong_CheckExact(value)) {
        return 0;
    }
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow < 0) {
        return 1;
    }
    if (overflow > 0) {
        PyLong_AsUnsignedLongLong(value);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return 1;
        }
    }
    return 0;
}

/* reading._strings: how many keys and strings `value` holds; -1 as it gives it. */
static Py_ssize_t
strings(PyObject *value, Py_ssize_t depth, Py_ssize_t limit)
{
    if (PyUnicode_CheckExact(value)) {
        return 1;
    }
    if (PyDict_CheckExact(value)) {
        if (depth >= limit) {
            return -1;
        }
        Py_ssize_t count = PyDict_GET_SIZE(value), at = 0;
        PyObject *key, *item;
        while (PyDict_Next(value, &at, &key, &item)) {
            Py_ssize_t found = strings(item, depth + 1, limit);
            if (found < 0) {
                return -1;
            }
            count += found;
        }
        return count;
    }
    if (PyList_CheckExact(value)) {
        if (depth >= limit) {
            return -1;
        }
        Py_ssize_t count = 0;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(value); i++) {
            Py_ssize_t found = strings(PyList_GET_ITEM(value, i), depth + 1, limit);
            if (found < 0) {
                return -1;
            }
            count += found;
        }
        return count;
    }
    if (past_64_bits(value)) {
        return -1;
    }
    return 0;
}

/* How many '"' a str holds. */
static Py_ssize_t
quotes_in(PyObject *text)
{
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t count = 0, length = PyUnicode_GET_LENGTH(text);
    for (Py_ssize_t i = 0; i < length; i++) {
        count += PyUnicode_READ(kind, data, i) == '"';
    }
    return count;
}

/* reading._quotes: how many quotes the JSON text of `value` holds; -1 as _strings gives it. */
static Py_ssize_t
quotes(PyObject *value, Py_ssize_t depth, Py_ssize_t limit)
{
    if (PyDict_CheckExact(value)) {
        if (depth >= limit) {
            return -1;
        }
        Py_ssize_t count = 2 * PyDict_GET_SIZE(value), at = 0;
        PyObject *key, *item;
        while (PyDict_Next(value, &at, &key, &item)) {
            if (!PyUnicode_Check(key)) {
                return -1;
            }
            count += quotes_in(key);
            Py_ssize_t found = quotes(item, depth + 1, limit);
            if (found < 0) {
                return -1;
            }
            count += found;
        }
        return count;
    }
    if (PyList_CheckExact(value)) {
        if (depth >= limit) {
            return -1;
        }
        Py_ssize_t count = 0;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(value); i++) {
            Py_ssize_t found = quotes(PyList_GET_ITEM(value, i), depth + 1, limit);
            if (found < 0) {
                return -1;
            }
            count += found;
        }
        return count;
    }
    if (PyUnicode_CheckExact(value)) {
        return 2 + quotes_in(value);
    }
    if (past_64_bits(value)) {
        return -1;
    }
    return 0;
}

/* What reading._undoubted counts of the text: its quotes, its escaped quotes (`\"`), whether
 * it holds a backslash, an escaped backslash (`\\`) or a quote escaped as `\u0022`. */
typedef struct {
    Py_ssize_t quotes, escaped_quotes;
    int backslash, escaped_backslash, u0022;
} Counts;

#define COUNT_UNITS(READ)                                                                  \
    for (Py_ssize_t i = 0; i < length; i++) {                                              \
        Py_UCS4 unit = READ(i);                                                            \
        if (unit == '"') {                                                                 \
            counts->quotes++;                                                              \
            counts->escaped_quotes += i > 0 && READ(i - 1) == '\\';                        \
        }                                                                                  \
        else if (unit == '\\') {                                                           \
            counts->backslash = 1;                                                         \
            if (i > 0 && READ(i - 1) == '\\') {                                            \
                counts->escaped_backslash = 1;                                             \
            }                                                                              \
            if (i + 5 < length && READ(i + 1) == 'u' && READ(i + 2) == '0' &&              \
                READ(i + 3) == '0' && READ(i + 4) == '2' && READ(i + 5) == '2') {          \
                counts->u0022 = 1;                                                         \
            }                                                                              \
        }                                                                                  \
    }

/* Scans in blocks of 240 bytes (15 vectors of 16): a block's count fits a byte, which the
 * compiler vectorises a lane per byte (a count as wide as the total widens each comparison),
 * and a block holds whole vectors, so no byte is left to a scalar loop. */
#define BLOCK 240

/* How many of `units` are a quote. */
static Py_ssize_t
count_quotes(const unsigned char *units, Py_ssize_t length)
{
    Py_ssize_t total = 0;
    for (Py_ssize_t start = 0; start < length; start += BLOCK) {
        Py_ssize_t end = length - start > BLOCK ? start + BLOCK : length;
        unsigned char block = 0;
        for (Py_ssize_t i = start; i < end; i++) {
            block += units[i] == '"';
        }
        total += block;
    }
    return total;
}

static void
count_bytes(const unsigned char *units, Py_ssize_t length, Counts *counts)
{
    /* Most texts hold no backslash: the quotes are counted, and the escapes looked for only
     * in a text that has one, all three in one more pass. Both passes are branch-free loops
     * the compiler vectorises: a body whose tool results are JSON text holds a backslash on
     * every line, and one loop with a branch a byte cost about as much as msgspec's reading
     * of the body (callgrind). */
    counts->quotes = count_quotes(units, length);
    if (length < 1 || memchr(units, '\\', (size_t)length) == NULL) {
        return;
    }
    counts->backslash = 1;
    Py_ssize_t escaped_quotes = 0;
    unsigned char backslashes = 0, u_escapes = 0;
    for (Py_ssize_t start = 1; start < length; start += BLOCK) {
        Py_ssize_t end = length - start > BLOCK ? start + BLOCK : length;
        unsigned char block = 0;
        for (Py_ssize_t i = start; i < end; i++) {
            unsigned char after = units[i - 1] == '\\';
            block += after & (units[i] == '"');
            backslashes |= after & (units[i] == '\\');
            u_escapes |= after & (units[i] == 'u');
        }
        escaped_quotes += block;
    }
    counts->escaped_quotes = escaped_quotes;
    counts->escaped_backslash = backslashes != 0;
    /* A `\u` escape is rare (JSON writers escape little but quotes, backslashes and
     * controls): only a text holding one is searched for `\u0022`. */
    if (u_escapes) {
        for (Py_ssize_t i = 0; i + 5 < length; i++) {
            if (units[i] == '\\' && memcmp(units + i + 1, "u0022", 5) == 0) {
                counts->u0022 = 1;
                break;
            }
        }
    }
}

static void
count_str(int kind, const void *data, Py_ssize_t length, Counts *counts)
{
#define READ_UNIT(i) PyUnicode_READ(kind, data, (i))
    COUNT_UNITS(READ_UNIT)
#undef READ_UNIT
}

static PyObject *
undoubted(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "undoubted() takes a value, its text and the limit");
        return NULL;
    }
    PyObject *value = args[0], *data = args[1];
    Py_ssize_t limit = PyLong_AsSsize_t(args[2]);
    if (limit == -1 && PyErr_Occurred()) {
        return NULL;
    }
    Counts counts = {0, 0, 0, 0, 0};
    if (PyBytes_CheckExact(data)) {
        count_bytes(
            (const unsigned char *)PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data), &counts
        );
    }
    else {
        if (ready_str(data, "undoubted") < 0) {
            return NULL;
        }
        if (PyUnicode_KIND(data) == PyUnicode_1BYTE_KIND) {
            count_bytes(PyUnicode_1BYTE_DATA(data), PyUnicode_GET_LENGTH(data), &counts);
        }
        else {
            count_str(PyUnicode_KIND(data), PyUnicode_DATA(data), PyUnicode_GET_LENGTH(data),
                      &counts);
        }
    }
    if (!counts.backslash) {
        return PyBool_FromLong(strings(value, 0, limit - 1) * 2 == counts.quotes);
    }
    if (counts.u0022) {
        Py_RETURN_FALSE;
    }
    if (!counts.escaped_backslash) {
        return PyBool_FromLong(strings(value, 0, limit - 1) * 2 + counts.escaped_quotes ==
                               counts.quotes);
    }
    return PyBool_FromLong(quotes(value, 0, limit - 1) == counts.quotes);
}

/* losses.append(kind(pointer, code, reason, part_type)) for `Loss`, a named tuple of four
 * fields: the tuple allocated as its type and filled, where Python calls `tuple.__new__`
 * through a method lookup and builds an argument tuple first (about 1,500 instructions a loss,
 * compiled; callgrind). */
static PyObject *
add_loss(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6 || !PyList_Check(args[0]) || !PyType_Check(args[1]) ||
        !PyType_IsSubtype((PyTypeObject *)args[1], &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError,
                        "add_loss() takes a list, a tuple type and the loss's four fields");
        return NULL;
    }
    PyTypeObject *kind = (PyTypeObject *)args[1];
    PyObject *loss = kind->tp_alloc(kind, 4);
    if (loss == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < 4; i++) {
        Py_INCREF(args[2 + i]);
        PyTuple_SET_ITEM(loss, i, args[2 + i]);
    }
    int failed = PyList_Append(args[0], loss);
    Py_DECREF(loss);
    if (failed) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"clean", clean_str, METH_O, "Whether a str is ASCII or holds no lone UTF-16 surrogate."},
    {"word", (PyCFunction)(void (*)(void))word, METH_FASTCALL,
     "Whether a str is 1 to `most` ASCII letters, digits or `marks`."},
    {"plain", (PyCFunction)(void (*)(void))plain, METH_FASTCALL,
     "Whether a value, `depth` levels down, is plain JSON with clean strings within `limit`."},
    {"undoubted", (PyCFunction)(void (*)(void))undoubted, METH_FASTCALL,
     "Whether msgspec's value of a JSON text is what the checking reader reads."},
    {"add_loss", (PyCFunction)(void (*)(void))add_loss, METH_FASTCALL,
     "Append kind(pointer, code, reason, part_type) to a list: a Loss, made as a tuple."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT,
    "interlingua.conversion._checks",
    "The fused passes' and read_json's checks of what they read, and their loss record, in C.",
    0,
    methods,
};

PyMODINIT_FUNC
PyInit__checks(void)
{
    return PyModule_Create(&definition);
}
