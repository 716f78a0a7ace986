#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""GStreamer conventions, checked the way a user meets them: `meson install`
puts a loadable plugin where GStreamer looks; gst-inspect-1.0 documents
every element fully and the example in each description runs; every
property that makes sense while playing is controllable and mutable in
PLAYING; each element and the runtime have debug categories; errors tell
the user what to do.

Run: /usr/bin/python3 tests/test_conventions.py BUILD_DIR
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

import gi

gi.require_version('Gst', '1.0')
from gi.repository import GObject, Gst  # noqa: E402

BUILD = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else 'build')
Gst.init(None)
PLUGIN = 'openclfilters'
# Properties that are not about the picture: set before start, or read-only.
NOT_CONTROLLABLE = {'name', 'parent', 'qos', 'device', 'current-device', 'stats'}


def inspect(*args, env=None):
    proc = subprocess.run(['gst-inspect-1.0', *args], capture_output=True, text=True,
                          env=env, timeout=120)
    return proc.returncode, proc.stdout + proc.stderr


def plugin_elements():
    rc, out = inspect(PLUGIN)
    assert rc == 0, out
    return sorted(re.findall(r'^\s+(\w+): ', out.split('Features:')[0].split('\n\n')[-1],
                             re.M)) or re.findall(r'^\s+(cl\w+): ', out, re.M)


class Install(unittest.TestCase):
    def test_meson_install_is_found_by_gstreamer(self):
        meson = shutil.which('meson')
        if not meson:
            self.skipTest('meson not on PATH')
        opts = subprocess.run([meson, 'introspect', BUILD, '--buildoptions'],
                              capture_output=True, text=True, check=True).stdout
        import json
        opts = {o['name']: o['value'] for o in json.loads(opts)}
        prefix, libdir = opts['prefix'], opts['libdir']
        gst_prefix = subprocess.run(['pkg-config', '--variable=prefix', 'gstreamer-1.0'],
                                    capture_output=True, text=True, check=True).stdout.strip()
        pluginsdir = subprocess.run(['pkg-config', '--variable=pluginsdir', 'gstreamer-1.0'],
                                    capture_output=True, text=True, check=True).stdout.strip()
        # With --prefix set to GStreamer's own prefix the plugin lands in
        # GStreamer's plugin folder; with any other prefix in the same place
        # below that prefix (GST_PLUGIN_PATH then names it, as the guide says).
        rel = os.path.join(libdir, 'gstreamer-1.0')
        self.assertEqual(os.path.normpath(os.path.join(gst_prefix, rel)),
                         os.path.normpath(pluginsdir))
        # The default prefix is GStreamer's: a plain `meson install` lands in
        # the folder GStreamer searches without GST_PLUGIN_PATH.
        self.assertEqual(os.path.normpath(prefix), os.path.normpath(gst_prefix),
                         'configured with a prefix other than the default')
        self.assertEqual(os.path.normpath(os.path.join(prefix, rel)),
                         os.path.normpath(pluginsdir))
        with tempfile.TemporaryDirectory() as dest:
            proc = subprocess.run([meson, 'install', '-C', BUILD, '--no-rebuild',
                                   '--destdir', dest], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            plugdir = dest + os.path.join(prefix, rel)
            so = os.path.join(plugdir, 'libgstopenclfilters.so')
            self.assertTrue(os.path.isfile(so), proc.stdout)
            # Only the installed copy is visible: system plugins plus that folder.
            env = dict(os.environ)
            env.pop('GST_PLUGIN_PATH', None)
            env.pop('GST_PLUGIN_PATH_1_0', None)
            env['GST_PLUGIN_PATH'] = plugdir
            env['GST_REGISTRY'] = os.path.join(dest, 'registry.bin')
            rc, out = inspect('clblur', env=env)
            self.assertEqual(rc, 0, out)
            self.assertRegex(out, r'Filename\s+' + re.escape(so))
            # and it runs from there
            proc = subprocess.run(['gst-launch-1.0', '-q', 'videotestsrc', 'num-buffers=3', '!',
                                   'video/x-raw,format=NV12,width=64,height=48', '!', 'clblur',
                                   '!', 'fakesink'], env=env, capture_output=True, text=True,
                                  timeout=300)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)


class Inspect(unittest.TestCase):
    def test_plugin_lists_elements(self):
        names = plugin_elements()
        for e in ('clblur', 'clhisteq', 'clsobel'):
            self.assertIn(e, names)

    def test_every_element_documented(self):
        for name in plugin_elements():
            with self.subTest(element=name):
                rc, out = inspect(name)
                self.assertEqual(rc, 0, out)
                for field in ('Long-name', 'Klass', 'Description', 'Author'):
                    m = re.search(r'^\s+%s\s+(.+)$' % field, out, re.M)
                    self.assertTrue(m and len(m.group(1).strip()) > 5, field)
                self.assertIn('gst-launch-1.0', out.split('Plugin Details')[0],
                              'description without an example pipeline')
                self.assertIn('SINK template', out)
                self.assertIn('SRC template', out)
                factory = Gst.ElementFactory.find(name)
                el = factory.create(None)
                for spec in el.list_properties():
                    if spec.owner_type in (Gst.Object.__gtype__, GObject.Object.__gtype__):
                        continue
                    blurb = spec.blurb or ''
                    self.assertGreaterEqual(len(blurb), 15, '%s: blurb too short' % spec.name)
                    self.assertNotEqual(blurb.lower(), (spec.nick or '').lower())
                    self.assertRegex(out, r'\n  %s\s*: ' % re.escape(spec.name))

    def test_description_examples_run(self):
        """The example pipeline in each element's description runs as is."""
        for name in plugin_elements():
            with self.subTest(element=name):
                desc = Gst.ElementFactory.find(name).get_metadata('description')
                m = re.search(r'gst-launch-1\.0 (.*)$', desc)
                self.assertTrue(m, desc)
                with tempfile.TemporaryDirectory() as tmp:
                    proc = subprocess.run(['gst-launch-1.0', '-q'] + shlex.split(m.group(1)),
                                          cwd=tmp, capture_output=True, text=True,
                                          timeout=600)
                    self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
                    files = os.listdir(tmp)
                    self.assertTrue(files and all(os.path.getsize(os.path.join(tmp, f)) > 100
                                                  for f in files), files)


class Properties(unittest.TestCase):
    def test_controllable_while_playing(self):
        for name in plugin_elements():
            el = Gst.ElementFactory.make(name)
            for spec in el.list_properties():
                if spec.name in NOT_CONTROLLABLE or not spec.flags & GObject.ParamFlags.WRITABLE:
                    continue
                with self.subTest(element=name, prop=spec.name):
                    self.assertTrue(spec.flags & Gst.PARAM_CONTROLLABLE, 'not controllable')
                    self.assertTrue(spec.flags & Gst.PARAM_MUTABLE_PLAYING,
                                    'not changeable while playing')

    def test_device_is_not_changed_while_playing(self):
        for name in plugin_elements():
            spec = Gst.ElementFactory.make(name).find_property('device')
            self.assertTrue(spec.flags & Gst.PARAM_MUTABLE_READY, name)


class Debug(unittest.TestCase):
    def test_categories(self):
        names = plugin_elements()
        for n in names:
            Gst.ElementFactory.make(n)
        cats = {c.get_name(): c.get_description() for c in Gst.debug_get_all_categories()}
        for n in names + ['clfilter', 'cl']:
            self.assertIn(n, cats)
            self.assertTrue(cats[n])


class Errors(unittest.TestCase):
    def launch(self, *args, env=None):
        e = dict(os.environ)
        e.update(env or {})
        return subprocess.run(['gst-launch-1.0', 'videotestsrc', 'num-buffers=1', '!',
                               *args, '!', 'fakesink'], capture_output=True, text=True,
                              env=e, timeout=120)

    def test_unknown_device_lists_devices(self):
        proc = self.launch('clblur', 'device=no-such-device')
        self.assertNotEqual(proc.returncode, 0)
        out = proc.stdout + proc.stderr
        self.assertIn('no OpenCL device matches "no-such-device"', out)
        self.assertIn('available devices: 0.0', out)
        self.assertIn('set the "device" property or GST_CL_DEVICE', out)

    def test_no_driver_says_what_to_install(self):
        with tempfile.TemporaryDirectory() as empty:
            proc = self.launch('clsobel', env={'OCL_ICD_VENDORS': empty,
                                               'GST_REGISTRY_FORK': 'no'})
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn('install one, e.g. pocl-opencl-icd', proc.stdout + proc.stderr)


if __name__ == '__main__':
    unittest.main(verbosity=2)
