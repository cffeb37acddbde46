/* Whether a str holds a lone UTF-16 surrogate (U+D800..U+DFFF), which JSON text cannot carry:
 * the check the fused pair converters make of every non-ASCII string they read
 * (interlingua/conversion/adapters/fused_checks.py), built beside the mypyc modules when a C
 * compiler is there; the pure-Python wheel encodes the string to UTF-8 instead, which refuses
 * the same strings.
 *
 * A str stores one code point per unit of 1, 2 or 4 bytes, the width its largest code point
 * needs; a surrogate needs 2, so a 1-byte string holds none, and a wider one is scanned
 * without branching on each unit (the loop vectorises), where encoding it would write it out.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

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

static PyObject *
none_in(PyObject *module, PyObject *text)
{
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "none_in() takes a str, not %.100s", Py_TYPE(text)->tp_name);
        return NULL;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) { /* a legacy string built by the old API */
        return NULL;
    }
#endif
    return PyBool_FromLong(!holds_surrogate(text));
}

static PyMethodDef methods[] = {
    {"none_in", none_in, METH_O, "Whether a str holds no lone UTF-16 surrogate."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT,
    "interlingua.conversion._lone_surrogates",
    "Whether a str holds a lone UTF-16 surrogate, without encoding it.",
    0,
    methods,
};

PyMODINIT_FUNC
PyInit__lone_surrogates(void)
{
    return PyModule_Create(&definition);
}
