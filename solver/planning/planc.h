/* _planc's functions defined outside _planc.c (planc_rows.c: the fetch search's row filters). */
#ifndef PLANC_H
#define PLANC_H
#include <Python.h>

PyObject *reach_rows(PyObject *self, PyObject *args);
PyObject *narrowed_rows(PyObject *self, PyObject *args);
PyObject *most_rows(PyObject *self, PyObject *args);

#endif
