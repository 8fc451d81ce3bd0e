// Images for a message: read from pasted, dropped or picked files, checked against what
// the engine accepts (it checks again: this only saves a round trip).
import type { ImageInput } from "../../gen/protocol";
import { t } from "../../i18n";

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export const MAX_IMAGES = 8;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Why a file was not taken; put in words when shown (`describeImageProblem`). */
export type ImageProblemReason =
  | { kind: "type" }
  | { kind: "size"; megabytes: number }
  | { kind: "count"; max: number }
  | { kind: "read"; message: string };

export interface ImageProblem {
  /** The file's name; null for a pasted image that has none. */
  name: string | null;
  reason: ImageProblemReason;
}

/** "shot.png: larger than 5 MB", in the current language. */
export function describeImageProblem({ name, reason }: ImageProblem): string {
  const why =
    reason.kind === "type"
      ? t("chat:images.notAnImage")
      : reason.kind === "size"
        ? t("chat:images.tooLarge", { megabytes: reason.megabytes })
        : reason.kind === "count"
          ? t("chat:images.tooMany", { max: reason.max })
          : reason.message;
  return t("chat:images.problem", { name: name ?? t("chat:images.pastedImage"), reason: why });
}

function readAsBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result ?? "");
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error(t("chat:images.unreadable")));
    reader.readAsDataURL(file);
  });
}

/**
 * The images among `files` that may be added to `current`, and why the others may not
 * (not an image, too large, too many).
 */
export async function readImages(
  files: readonly File[],
  current: number,
): Promise<{ images: ImageInput[]; problems: ImageProblem[] }> {
  const images: ImageInput[] = [];
  const problems: ImageProblem[] = [];
  for (const file of files) {
    const name = file.name || null;
    if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) {
      problems.push({ name, reason: { kind: "type" } });
      continue;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      problems.push({ name, reason: { kind: "size", megabytes: MAX_IMAGE_BYTES / 1024 / 1024 } });
      continue;
    }
    if (current + images.length >= MAX_IMAGES) {
      problems.push({ name, reason: { kind: "count", max: MAX_IMAGES } });
      continue;
    }
    try {
      const data = await readAsBase64(file);
      images.push(file.name ? { media_type: file.type, data, name: file.name } : { media_type: file.type, data });
    } catch (error) {
      problems.push({ name, reason: { kind: "read", message: error instanceof Error ? error.message : String(error) } });
    }
  }
  return { images, problems };
}

export function imageUrl(image: ImageInput): string {
  return `data:${image.media_type};base64,${image.data}`;
}
