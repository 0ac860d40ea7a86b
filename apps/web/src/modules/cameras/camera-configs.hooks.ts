import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { cameraConfigsRoutes, type RouteInput } from '@stadiumcam/contract';
import { api } from '../../ui/api.ts';
import { useSocketEvent } from '../../ui/socket.ts';

export const CAMERA_CONFIGS_KEY = ['cameras', 'configs'] as const;

/** GET cameras/configs; refetched when a host reports new settings. */
export function useCameraConfigs() {
  const qc = useQueryClient();
  useSocketEvent('camera configs', () => void qc.invalidateQueries({ queryKey: CAMERA_CONFIGS_KEY }));
  return useQuery({ queryKey: CAMERA_CONFIGS_KEY, queryFn: () => api(cameraConfigsRoutes.list) });
}

export function useUpdateCameraConfigs() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RouteInput<typeof cameraConfigsRoutes.update>['body']) =>
      api(cameraConfigsRoutes.update, { params: { key: body.camera }, body }),
    // spec 3 §4: after success the camera is refetched.
    onSuccess: () => qc.invalidateQueries({ queryKey: CAMERA_CONFIGS_KEY }),
  });
}
