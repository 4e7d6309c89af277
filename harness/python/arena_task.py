"""What Python-provided kernels read of task.json: the ABI order of params and tensors, and
tensor shapes per configuration (shape expressions are integer arithmetic of the int params,
as the C++ spec loader checked them)."""
import json
import os
import re


def eval_shape(expr, ints):
    py = re.sub(r"(?<![/])/(?![/])", "//", expr) if isinstance(expr, str) else str(expr)
    funcs = {"min": min, "max": max, "ceil_div": lambda a, b: -(-a // b)}
    return int(eval(py, {"__builtins__": {}}, {**funcs, **ints}))  # noqa: S307 (task files are trusted)


class TaskInfo:
    def __init__(self, task_file):
        self.task_file = os.path.abspath(task_file)
        with open(self.task_file) as f:
            self.spec = json.load(f)
        self.int_names = [p["name"] for p in self.spec["params"] if p["type"] == "int"]
        self.float_names = [p["name"] for p in self.spec["params"] if p["type"] == "float"]
        self.tensors = self.spec["tensors"]
        self.index = {t["name"]: i for i, t in enumerate(self.tensors)}

    def values(self, ints, floats):
        """Params by name from the ABI's int and float arrays."""
        v = dict(zip(self.int_names, ints))
        v.update(zip(self.float_names, floats))
        return v

    def shape(self, name, values):
        ints = {k: values[k] for k in self.int_names}
        return [eval_shape(e, ints) for e in self.tensors[self.index[name]]["shape"]]

    def where(self, values):
        return " ".join(f"{k}={values[k]}" for k in self.int_names + self.float_names)
