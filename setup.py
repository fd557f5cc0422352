"""The compiled core, ``cardlab._core``: one C extension module built from ``csrc/*.c``.

Everything else about the package is in pyproject.toml; setuptools needs this file only
to name the extension and its sources.
"""

from __future__ import annotations

import glob
import os

from setuptools import Extension, setup

sources = sorted(glob.glob(os.path.join("csrc", "*.c")))
headers = sorted(glob.glob(os.path.join("csrc", "*.h")))

setup(
    ext_modules=[
        Extension(
            "cardlab._core",
            sources=sources,
            depends=headers,
            include_dirs=["csrc"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wno-unused-function"],
        )
    ],
)
