"""Build the Blender scene of a scene.json: room shells, stairs, objects, lights, camera.

Two Blender scenes share one collection of geometry:
- the colour scene (`preview` = Workbench, `photoreal` = Cycles) that makes the video, and
- the id scene: Workbench, flat shading, each object drawn in its own exact colour (no
  anti-aliasing, no colour management, no dithering), decoded back to ids for visibility.
Room surfaces (floor, walls, ceiling, lamps, trims) carry their room's id; every object of
scene["objects"] has its own id; id 0 is the outside (sky, ground, exterior walls).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import bpy
import numpy as np

from assets.models import AssetModel, Part, build_model
from formats.camera import Camera
from formats.seeding import stage_rng
from render import idcolors
from render.blender_assets import add_model
from generator.doors import Leaf, leaves
from render.doors import leaf_model
from render.shell import EXTERIOR, build_shell

SKY = (0.62, 0.76, 0.93)  # sRGB
PROFILES = ("preview", "photoreal")

LAMP_W_PER_M2 = 12.0      # ceiling area light power per m^2 of floor it serves
# Cycles samples per pixel (denoised): on this 2-core machine at 640x480, scenario-01 frames took
# 2.7 s untextured at 3 spp, 3.2 s with render.textures at 3, 2.4 s textured at 2, which the
# denoiser makes look the same as 3. The target is 2 s (issue 13): measured back to back on an
# idle machine (2026-11-27, 9 frames each), 2 spp took 2.85-3.69 s a frame and 1 spp 1.86 s;
# the denoised 1-spp frames show the same objects, edges, tiles and wood grain, with fabric a
# little smoother (docs/stills)
CYCLES_SAMPLES = 1


@dataclass
class BuiltScene:
    color_scene: bpy.types.Scene
    id_scene: bpy.types.Scene
    camera: bpy.types.Object
    ids: dict[int, tuple[str, str]] = field(default_factory=dict)   # id -> (kind, key)
    profile: str = "preview"
    doors: dict[str, tuple[bpy.types.Object, Leaf]] = field(default_factory=dict)  # door id -> leaf

    def id_table(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {"object": {}, "room": {}, "space": {}}
        for i, (kind, key) in self.ids.items():
            out[kind][key] = i
        return out


def srgb_to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lin(rgb) -> tuple[float, float, float]:
    return tuple(srgb_to_linear(float(c)) for c in rgb)  # type: ignore[return-value]


def object_model(obj: dict, seed: int) -> AssetModel:
    """The asset model of one placed object (deterministic per scene seed and object id)."""
    attrs = dict(obj.get("attributes") or {})
    color = attrs.pop("color", None)
    attrs.pop("material", None)
    model_seed = attrs.pop("model_seed", None)
    rng = (np.random.default_rng(int(model_seed)) if model_seed is not None
           else stage_rng(seed, f"render-model:{obj['id']}"))
    size = tuple(float(v) for v in obj["size"]) if obj.get("size") else None
    try:
        return build_model(obj["category"], rng, size=size, color=color, **attrs)
    except ValueError:        # an unknown colour name: keep the shape, drawn colour
        rng = stage_rng(seed, f"render-model:{obj['id']}")
        return build_model(obj["category"], rng, size=size, **attrs)


def reset_blender() -> None:
    bpy.ops.wm.read_factory_settings(use_empty=True)


def _collection(name: str) -> bpy.types.Collection:
    coll = bpy.data.collections.new(name)
    return coll


def build_scene(scene: dict, profile: str, camera: Camera,
                id_width: int | None = None, id_height: int | None = None) -> BuiltScene:
    """Build everything into a fresh Blender session and return both scenes and the ids.
    The video is `camera.width` x `camera.height` with `camera.hfov_deg` across its width (the
    camera of trajectory.json); the id pass has the same field of view at id_width x id_height."""
    width, height = camera.width, camera.height
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r} (one of {', '.join(PROFILES)})")
    reset_blender()
    seed = int(scene.get("seed") or 0)
    color_scene = bpy.context.scene
    color_scene.name = "color"
    geo = _collection("geometry")
    lights = _collection("lights")
    color_scene.collection.children.link(geo)
    color_scene.collection.children.link(lights)

    table = idcolors.assign_ids(scene)
    built_ids = {i: key for key, i in table.items()}
    shell = build_shell(scene, seed)
    for owner, parts in shell.by_owner().items():
        oid = 0 if owner == EXTERIOR else table.get(("room", owner), table.get(("space", owner), 0))
        model = AssetModel(f"shell:{owner}", (0.0, 0.0, 0.0),
                           [Part(p.name, p.mesh, p.material) for p in parts], "", "shell")
        for ob in add_model(model, (0.0, 0.0, 0.0), 90.0, name=f"shell:{owner}", collection=geo, pass_index=oid):
            ob.color = idcolors.id_to_rgba(oid)
            ob["egoscene_id"] = oid
    for obj in scene.get("objects", []):
        oid = table[("object", obj["id"])]
        model = object_model(obj, seed)
        pos = [float(v) for v in obj["position"]]
        for ob in add_model(model, pos, float(obj.get("yaw", 90.0)), name=obj["id"], collection=geo,
                            pass_index=oid):
            ob.color = idcolors.id_to_rgba(oid)
            ob["egoscene_id"] = oid

    doors = _add_door_leaves(scene, geo, seed)

    cam = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
    cam.data.sensor_fit = "HORIZONTAL"          # the angle spans the image width, square pixels
    cam.data.angle = math.radians(camera.hfov_deg)
    cam.data.shift_x = cam.data.shift_y = 0.0   # principal point at the image centre
    cam.data.clip_start = 0.05
    cam.data.clip_end = 400.0
    geo.objects.link(cam)
    color_scene.camera = cam

    _add_lights(shell, lights, scene)
    _setup_color(color_scene, profile, width, height)

    id_scene = bpy.data.scenes.new("ids")
    id_scene.collection.children.link(geo)
    id_scene.camera = cam
    _setup_ids(id_scene, id_width or width, id_height or height)
    return BuiltScene(color_scene, id_scene, cam, built_ids, profile, doors)


def _add_door_leaves(scene: dict, geo: bpy.types.Collection, seed: int) -> dict:
    """A closed leaf in each doorway of generator.doors.leaves; id 0 (neither side's room: a
    closed door shows neither)."""
    elevation = {int(f["floor"]): float(f["elevation"]) for f in scene.get("floors", [])}
    out = {}
    for leaf in leaves(scene):
        model = leaf_model(leaf, stage_rng(seed, f"render-door:{leaf.door}"))
        z = elevation.get(leaf.floor, 3.0 * leaf.floor)
        (ob,) = add_model(model, (*leaf.hinge, z), leaf.yaw(0.0) + 90.0, name=f"door-leaf:{leaf.door}",
                          collection=geo, pass_index=0)
        ob.color = idcolors.id_to_rgba(0)
        ob["egoscene_id"] = 0
        out[leaf.door] = (ob, leaf)
    return out


def set_doors(built: BuiltScene, states: dict[str, float] | None) -> None:
    """Open each leaf by its angle in `states` (door id -> degrees; absent = closed)."""
    states = states or {}
    for door, (ob, leaf) in built.doors.items():
        ob.rotation_euler[2] = math.radians(leaf.yaw(float(states.get(door, 0.0))))


def keyframe_doors(built: BuiltScene, poses: list[dict]) -> None:
    """Keyframe each leaf where its angle changes (poses carry `doors`, generator.doors.door_poses);
    constant interpolation, like the camera."""
    for door, (ob, leaf) in built.doors.items():
        last = None
        for pose in poses:
            angle = float((pose.get("doors") or {}).get(door, 0.0))
            if angle != last:
                ob.rotation_euler[2] = math.radians(leaf.yaw(angle))
                ob.keyframe_insert("rotation_euler", index=2, frame=int(pose["frame"]))
                last = angle
        _constant_interpolation(ob)


def _add_lights(shell, lights: bpy.types.Collection, scene: dict) -> None:
    """Ceiling area lights (one per lamp panel), a sun and the sky (Cycles uses them;
    Workbench ignores lights)."""
    for k, spot in enumerate(shell.lights):
        data = bpy.data.lights.new(f"lamp-{k}", "AREA")
        data.shape = "SQUARE"
        data.size = 0.9
        data.energy = LAMP_W_PER_M2 * max(6.0, spot.area)
        data.color = (1.0, 0.95, 0.87)
        ob = bpy.data.objects.new(f"lamp-{k}", data)
        ob.location = (spot.position[0], spot.position[1], spot.position[2] - 0.04)
        lights.objects.link(ob)
    sun = bpy.data.lights.new("sun", "SUN")
    sun.energy = 4.0
    sun.angle = math.radians(2.0)
    sun.color = (1.0, 0.96, 0.9)
    ob = bpy.data.objects.new("sun", sun)
    ob.rotation_euler = (math.radians(50.0), 0.0, math.radians(35.0))
    lights.objects.link(ob)


def _setup_world(scene: bpy.types.Scene, rgb, strength: float) -> None:
    world = bpy.data.worlds.new(f"world-{scene.name}")
    world.color = _lin(rgb)
    world.use_nodes = True if world.node_tree is None else world.use_nodes
    bg = world.node_tree.nodes.get("Background") if world.node_tree else None
    if bg is not None:
        bg.inputs["Color"].default_value = (*_lin(rgb), 1.0)
        bg.inputs["Strength"].default_value = strength
    scene.world = world


def _common_output(scene: bpy.types.Scene, width: int, height: int) -> None:
    r = scene.render
    r.resolution_x, r.resolution_y, r.resolution_percentage = width, height, 100
    r.fps, r.fps_base = 30, 1.0
    r.use_file_extension = False
    r.use_compositing = False
    r.use_sequencer = False
    r.image_settings.media_type = "IMAGE"
    r.image_settings.file_format = "PNG"
    r.image_settings.color_mode = "RGB"
    r.image_settings.color_depth = "8"
    r.image_settings.compression = 10      # zlib fast: PNG writing stays a few ms


def _setup_color(scene: bpy.types.Scene, profile: str, width: int, height: int) -> None:
    _common_output(scene, width, height)
    if profile == "preview":
        scene.render.engine = "BLENDER_WORKBENCH"
        _setup_world(scene, SKY, 1.0)
        sh = scene.display.shading
        sh.light = "STUDIO"
        sh.color_type = "MATERIAL"
        sh.show_specular_highlight = True
        sh.show_cavity = True
        sh.cavity_type = "WORLD"
        sh.cavity_ridge_factor = 0.6
        sh.cavity_valley_factor = 1.0
        sh.show_shadows = False
        sh.show_object_outline = False
        sh.use_dof = False
        sh.studio_light = _interior_studio_light()
        sh.use_world_space_lighting = True      # a wall keeps its shade as the camera turns
        # Workbench's own single-pass anti-aliasing costs about 60 ms a frame at 640x480 on
        # software GL, half the frame; the compositor's SMAA (CPU) looks the same for 18 ms
        scene.display.render_aa = "OFF"
        _smaa(scene)
        scene.display.matcap_ssao_distance = 0.8
        scene.view_settings.view_transform = "Standard"
        scene.view_settings.look = "None"
        scene.view_settings.exposure = 0.0
    else:
        scene.render.engine = "CYCLES"
        _setup_world(scene, SKY, 1.2)
        c = scene.cycles
        c.device = _cycles_device()
        c.samples = CYCLES_SAMPLES
        c.use_adaptive_sampling = False     # at 2-3 spp it only adds overhead
        c.use_denoising = True
        c.denoiser = "OPENIMAGEDENOISE"
        c.denoising_input_passes = "RGB_ALBEDO_NORMAL"
        c.denoising_prefilter = "FAST"
        c.denoising_quality = "FAST"
        c.max_bounces = 2               # direct light + one diffuse bounce (lit ceilings)
        c.diffuse_bounces = 1
        c.glossy_bounces = 1
        c.transmission_bounces = 2
        c.transparent_max_bounces = 4
        c.caustics_reflective = False
        c.caustics_refractive = False
        c.sample_clamp_indirect = 5.0
        c.use_light_tree = False        # 45% faster here; the denoiser takes the extra noise
        c.seed = 0
        c.use_animated_seed = False
        scene.render.use_persistent_data = True     # keep the BVH between frames
        # Khronos PBR Neutral keeps base colours (a red sofa stays red) and rolls off
        # highlights (windows, lamp panels) - AgX washes colours out, Standard clips
        scene.view_settings.view_transform = "Khronos PBR Neutral"
        scene.view_settings.look = "None"
        scene.view_settings.exposure = -0.2


SMAA_THRESHOLD = 0.05   # edge contrast SMAA smooths (Blender's default 0.2 leaves more stairs)


def _smaa(scene: bpy.types.Scene) -> None:
    """Anti-alias the rendered image in the compositor: SMAA on the render layer.
    Measured against a 32-sample Workbench render of the same frames (scenario-01, 640x480),
    the mean error along edges is as low as with Workbench's FXAA (3.1-6.7 vs 3.1-6.6 grey levels)."""
    smaa = composite_render_layer(scene, f"smaa-{scene.name}", "Image", "CompositorNodeAntiAliasing")
    smaa.inputs["Threshold"].default_value = SMAA_THRESHOLD


def composite_render_layer(scene: bpy.types.Scene, name: str, socket: str, node_type: str | None = None):
    """Make the scene's output its render layer's `socket` ("Image", "Depth"), through one node
    of `node_type` when given (returned, to set its inputs)."""
    tree = bpy.data.node_groups.new(name, "CompositorNodeTree")
    tree.interface.new_socket("Image", in_out="OUTPUT", socket_type="NodeSocketColor")
    layers = tree.nodes.new("CompositorNodeRLayers")
    layers.scene = scene
    output = tree.nodes.new("NodeGroupOutput")
    node = tree.nodes.new(node_type) if node_type else None
    if node is None:
        tree.links.new(layers.outputs[socket], output.inputs[0])
    else:
        tree.links.new(layers.outputs[socket], node.inputs[0])
        tree.links.new(node.outputs[0], output.inputs[0])
    scene.compositing_node_group = tree
    scene.render.use_compositing = True
    return node


def _interior_studio_light() -> str:
    """Even interior lighting for Workbench (ambient + soft key from above, fills from the
    side and from below so ceilings are not black): render/data/interior.sl."""
    from pathlib import Path
    path = Path(__file__).with_name("data") / "interior.sl"
    lights = bpy.context.preferences.studio_lights
    for sl in lights:
        if sl.path and Path(sl.path).name == path.name:
            return sl.name
    return lights.load(str(path), "STUDIO").name


def _cycles_device() -> str:
    """GPU when Blender finds one (CUDA/OptiX/HIP/oneAPI/Metal), else CPU."""
    try:
        prefs = bpy.context.preferences.addons["cycles"].preferences
    except (KeyError, AttributeError):
        return "CPU"
    for backend in ("OPTIX", "CUDA", "HIP", "ONEAPI", "METAL"):
        try:
            prefs.compute_device_type = backend
            prefs.get_devices()
        except (TypeError, ValueError, RuntimeError):
            continue
        gpus = [d for d in prefs.devices if d.type == backend]
        if gpus:
            for d in prefs.devices:
                d.use = d.type == backend
            return "GPU"
    try:
        prefs.compute_device_type = "NONE"
    except (TypeError, ValueError):
        pass
    return "CPU"


def _setup_ids(scene: bpy.types.Scene, width: int, height: int) -> None:
    _common_output(scene, width, height)
    scene.render.image_settings.compression = 0
    scene.render.engine = "BLENDER_WORKBENCH"
    scene.render.dither_intensity = 0.0
    scene.render.film_transparent = False
    _setup_world(scene, (0.0, 0.0, 0.0), 1.0)
    sh = scene.display.shading
    sh.light = "FLAT"
    sh.color_type = "OBJECT"
    sh.show_specular_highlight = False
    sh.show_cavity = False
    sh.show_shadows = False
    sh.show_object_outline = False
    sh.show_xray = False
    sh.use_dof = False
    sh.show_backface_culling = False
    scene.display.render_aa = "OFF"
    scene.view_settings.view_transform = "Raw"
    scene.view_settings.look = "None"
    scene.view_settings.exposure = 0.0
    scene.view_settings.gamma = 1.0


def camera_rotation(yaw_deg: float, pitch_deg: float) -> tuple[float, float, float]:
    """Blender XYZ euler of a camera looking along yaw (deg CCW from +x) and pitch (deg up).
    Blender's camera looks along its local -Z with +Y up; the rotation matrix of these angles
    is formats.camera.rotation(yaw, pitch) with its second and third columns negated (OpenCV
    y down / z forward -> Blender y up / z backward): tests/test_formats.py checks it."""
    return (math.radians(90.0 + pitch_deg), 0.0, math.radians(yaw_deg - 90.0))


def set_pose(cam: bpy.types.Object, pose: dict) -> None:
    cam.location = tuple(float(v) for v in pose["position"])
    cam.rotation_euler = camera_rotation(float(pose["yaw"]), float(pose["pitch"]))


def keyframe_camera(cam: bpy.types.Object, poses: list[dict]) -> None:
    """One keyframe per trajectory frame (Blender frame = trajectory frame number), constant
    interpolation; yaw is unwrapped so consecutive keys never differ by a full turn. The first
    key is inserted as usual (it makes the action and its curves); the rest are written into
    the curves at once (keyframe_insert per frame took 0.6-0.9 s for a 2000-2700-frame walk)."""
    rows, prev = [], None
    for pose in poses:
        yaw = float(pose["yaw"])
        if prev is not None:
            yaw = prev + ((yaw - prev + 180.0) % 360.0 - 180.0)
        prev = yaw
        rot = camera_rotation(yaw, float(pose["pitch"]))
        rows.append((float(pose["frame"]), *(float(v) for v in pose["position"]), *rot))
    set_pose(cam, poses[0])
    for path in ("location", "rotation_euler"):
        cam.keyframe_insert(path, frame=int(poses[0]["frame"]))
    for fc in _fcurves(cam):
        column = 1 + fc.array_index + (3 if fc.data_path == "rotation_euler" else 0)
        points = fc.keyframe_points
        points.add(len(rows) - 1)
        points.foreach_set("co", [v for row in rows for v in (row[0], row[column])])
        fc.update()
    _constant_interpolation(cam)


def clear_animation(built: BuiltScene) -> None:
    """Remove the camera's and the door leaves' keyframes (before keyframing another walk)."""
    for ob in [built.camera] + [ob for ob, _ in built.doors.values()]:
        ob.animation_data_clear()


def _fcurves(ob: bpy.types.Object) -> list:
    ad = ob.animation_data
    if ad is None or ad.action is None:
        return []
    fcurves = getattr(ad.action, "fcurves", None)
    if fcurves is None or len(fcurves) == 0:      # Blender 5 layered actions
        fcurves = []
        for layer in ad.action.layers:
            for strip in layer.strips:
                bag = strip.channelbag(ad.action_slot)
                if bag is not None:
                    fcurves.extend(bag.fcurves)
    return list(fcurves)


def _constant_interpolation(ob: bpy.types.Object) -> None:
    for fc in _fcurves(ob):
        for kp in fc.keyframe_points:
            kp.interpolation = "CONSTANT"


def configure_video_output(scene: bpy.types.Scene, path) -> None:
    """H.264 in MP4, 8-bit 4:2:0 (plays in browsers), fast preset, good quality, a key frame
    every second, no B-frames."""
    r = scene.render
    r.image_settings.media_type = "VIDEO"
    r.image_settings.file_format = "FFMPEG"
    r.image_settings.color_mode = "RGB"
    r.ffmpeg.format = "MPEG4"
    r.ffmpeg.codec = "H264"
    r.ffmpeg.constant_rate_factor = "MEDIUM"     # x264 crf 23: ~6 MB per minute at 640x480
    r.ffmpeg.ffmpeg_preset = "REALTIME"
    r.ffmpeg.gopsize = 30
    r.ffmpeg.use_max_b_frames = True     # no B-frames: segments can be joined without re-encoding
    r.ffmpeg.max_b_frames = 0
    r.ffmpeg.audio_codec = "NONE"
    r.use_file_extension = False
    r.filepath = str(path)
