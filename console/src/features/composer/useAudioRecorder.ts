import { useCallback, useEffect, useRef, useState } from 'react';

export type RecorderState = 'idle' | 'recording' | 'preview';

/** Bitrate of voice messages (seed 001 §9: 256). */
const RECORDING_BITRATE = 256_000;

/** The first container this browser records in (Ogg/Opus, else WebM); the server accepts both. */
function pickMimeType(): string | undefined {
  const R = (globalThis as { MediaRecorder?: { isTypeSupported?(t: string): boolean } }).MediaRecorder;
  return ['audio/ogg;codecs=opus', 'audio/webm;codecs=opus', 'audio/webm'].find((t) => R?.isTypeSupported?.(t));
}

/**
 * Voice recording of the composer (seed 001 §4 "Recording"): the mic toggles it, a mm:ss timer
 * runs, stopping yields a preview file; sending or discarding resets. Without microphone
 * permission `permissionDenied` turns on (the 'Permitir microfone' dialog); any other failure
 * just stops (logged only), as the seed says.
 *
 * The seed's recorder produced mp3; browsers record Opus (Ogg/WebM) natively, which the server
 * and the WhatsApp-type providers accept, so no mp3 encoder is shipped.
 */
export function useAudioRecorder(now: () => number = Date.now) {
  const [state, setState] = useState<RecorderState>('idle');
  const [seconds, setSeconds] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [permissionDenied, setPermissionDenied] = useState(false);
  const recorder = useRef<MediaRecorder | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  const discardNext = useRef(false);

  const release = useCallback(() => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
    stream.current?.getTracks().forEach((t) => t.stop());
    stream.current = null;
  }, []);
  useEffect(() => () => {
    discardNext.current = true;
    if (recorder.current?.state === 'recording') recorder.current.stop();
    release();
  }, [release]);

  const start = useCallback(async () => {
    if (state !== 'idle') return;
    try {
      const media = await navigator.mediaDevices.getUserMedia({ audio: true });
      stream.current = media;
      const mimeType = pickMimeType();
      const rec = new MediaRecorder(media, { ...(mimeType ? { mimeType } : {}), audioBitsPerSecond: RECORDING_BITRATE });
      const chunks: Blob[] = [];
      rec.ondataavailable = (e) => { if (e.data.size) chunks.push(e.data); };
      rec.onstop = () => {
        release();
        if (discardNext.current) {
          discardNext.current = false;
          return;
        }
        const type = (rec.mimeType || mimeType || 'audio/webm').split(';')[0]!;
        const ext = type.includes('ogg') ? 'ogg' : 'webm';
        setFile(new File(chunks, `audio-${now()}.${ext}`, { type }));
        setState('preview');
      };
      recorder.current = rec;
      rec.start();
      const startedAt = now();
      setSeconds(0);
      timer.current = setInterval(() => setSeconds(Math.floor((now() - startedAt) / 1000)), 250);
      setState('recording');
    } catch (e) {
      release();
      const name = (e as { name?: string })?.name;
      if (name === 'NotAllowedError' || name === 'SecurityError') setPermissionDenied(true);
      else console.warn('useAudioRecorder: could not start recording', e);
      setState('idle');
    }
  }, [state, now, release]);

  const stop = useCallback(() => {
    if (recorder.current?.state === 'recording') recorder.current.stop();
  }, []);

  /** Back to idle, dropping a recording in progress or in preview. */
  const reset = useCallback(() => {
    if (recorder.current?.state === 'recording') {
      discardNext.current = true;
      recorder.current.stop();
    }
    release();
    recorder.current = null;
    setFile(null);
    setSeconds(0);
    setState('idle');
  }, [release]);

  return { state, seconds, file, start, stop, reset, permissionDenied, dismissPermission: () => setPermissionDenied(false) };
}
