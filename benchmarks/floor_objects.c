/* What any converter that writes its output as Python objects must do, done in C with nothing
   else: `touch` reads every object of a body once (for a string, a byte of each cache line of
   its text), and `rebuild` makes new dicts and lists in the shape of a converted body, sharing
   every other object with it, as a converter shares the input's strings. benchmarks/floor.py
   builds this module and times them; it is no part of the package. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* Objects read: each container, key and value once. */
static Py_ssize_t touch(PyObject *node, unsigned *sink) {
    if (PyDict_CheckExact(node)) {
        PyObject *key, *value;
        Py_ssize_t at = 0, seen = 1;
        while (PyDict_Next(node, &at, &key, &value)) {
            seen += touch(key, sink) + touch(value, sink);
        }
        return seen;
    }
    if (PyList_CheckExact(node)) {
        Py_ssize_t seen = 1;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(node); i++) {
            seen += touch(PyList_GET_ITEM(node, i), sink);
        }
        return seen;
    }
    if (PyUnicode_CheckExact(node)) {
        const unsigned char *text = PyUnicode_DATA(node);
        Py_ssize_t size = PyUnicode_GET_LENGTH(node) * PyUnicode_KIND(node);
        for (Py_ssize_t i = 0; i < size; i += 64) {
            *sink += text[i];
        }
        return 1;
    }
    *sink += (unsigned)(Py_TYPE(node)->tp_flags & 1);
    return 1;
}

static PyObject *rebuild(PyObject *node) {
    if (PyDict_CheckExact(node)) {
        PyObject *copy = PyDict_New(), *key, *value;
        Py_ssize_t at = 0;
        if (copy == NULL) {
            return NULL;
        }
        while (PyDict_Next(node, &at, &key, &value)) {
            PyObject *item = rebuild(value);
            if (item == NULL || PyDict_SetItem(copy, key, item) < 0) {
                Py_XDECREF(item);
                Py_DECREF(copy);
                return NULL;
            }
            Py_DECREF(item);
        }
        return copy;
    }
    if (PyList_CheckExact(node)) {
        Py_ssize_t size = PyList_GET_SIZE(node);
        PyObject *copy = PyList_New(size);
        if (copy == NULL) {
            return NULL;
        }
        for (Py_ssize_t i = 0; i < size; i++) {
            PyObject *item = rebuild(PyList_GET_ITEM(node, i));
            if (item == NULL) {
                Py_DECREF(copy);
                return NULL;
            }
            PyList_SET_ITEM(copy, i, item);
        }
        return copy;
    }
    Py_INCREF(node);
    return node;
}

static PyObject *py_touch(PyObject *module, PyObject *node) {
    unsigned sink = 0;
    Py_ssize_t seen = touch(node, &sink);
    /* the sum is returned so the compiler cannot drop the reads */
    return Py_BuildValue("(nI)", seen, sink);
}

static PyObject *py_rebuild(PyObject *module, PyObject *node) { return rebuild(node); }

static PyMethodDef methods[] = {
    {"touch", py_touch, METH_O,
     "touch(node) -> (objects, checksum): read every object of a JSON-shaped value once."},
    {"rebuild", py_rebuild, METH_O,
     "rebuild(node): new dicts and lists of the same shape, every other object shared."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "floor_objects", NULL, -1, methods};

PyMODINIT_FUNC PyInit_floor_objects(void) { return PyModule_Create(&module); }
