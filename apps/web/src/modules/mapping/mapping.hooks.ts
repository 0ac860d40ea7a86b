import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { mappingRoutes, type RegionInput } from '@stadiumcam/contract';
import { api, apiForm } from '../../ui/api.ts';
import { useSocketEvent } from '../../ui/socket.ts';

export const MAPPING_KEY = ['mapping'] as const;
const FILES_KEY = [...MAPPING_KEY, 'files'] as const;
const SEAT_MAP_KEY = [...MAPPING_KEY, 'seat-map'] as const;

/** Everything read from the seat map refreshes when any console reloads it. */
function useSeatMapUpdates() {
  const qc = useQueryClient();
  useSocketEvent('seat map updated', () => void qc.invalidateQueries({ queryKey: MAPPING_KEY }));
}

export function useConfigFiles() {
  return useQuery({ queryKey: FILES_KEY, queryFn: () => api(mappingRoutes.list) });
}

export function useSeatMap() {
  useSeatMapUpdates();
  return useQuery({ queryKey: SEAT_MAP_KEY, queryFn: () => api(mappingRoutes.seatMap) });
}

export function useQueueEntries() {
  useSeatMapUpdates();
  return useQuery({ queryKey: [...MAPPING_KEY, 'queue'], queryFn: () => api(mappingRoutes.queue) });
}

export function useMappingStats() {
  useSeatMapUpdates();
  return useQuery({ queryKey: [...MAPPING_KEY, 'stats'], queryFn: () => api(mappingRoutes.stats) });
}

export function useUploadConfigFiles() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (files: File[]) => {
      const form = new FormData();
      for (const f of files) form.append('file', f, f.name);
      return apiForm(mappingRoutes.upload, form);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: FILES_KEY }),
  });
}

export function useReloadConfig() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api(mappingRoutes.reload),
    onSuccess: () => qc.invalidateQueries({ queryKey: MAPPING_KEY }),
  });
}

export function useDeleteConfigFile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api(mappingRoutes.remove, { body: { name } }),
    onSettled: () => qc.invalidateQueries({ queryKey: FILES_KEY }),
  });
}

type RegionRef = { camera: string; type: string; section: string; index: number };

/** The mapping tool's region and reference calls; each answers the new seat map. */
export function useRegionMutations() {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: MAPPING_KEY });
  return {
    add: useMutation({
      mutationFn: ({ camera, region }: { camera: string; region: RegionInput }) =>
        api(mappingRoutes.addRegion, { params: { camera }, body: region }),
      onSuccess: done,
    }),
    update: useMutation({
      mutationFn: ({ ref, region }: { ref: RegionRef; region: RegionInput }) =>
        api(mappingRoutes.updateRegion, { params: ref, body: region }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (ref: RegionRef) => api(mappingRoutes.deleteRegion, { params: ref }),
      onSuccess: done,
    }),
    reference: useMutation({
      mutationFn: ({ camera, pan, tilt, zoom }: { camera: string; pan: number; tilt: number; zoom: number }) =>
        api(mappingRoutes.setReference, { params: { camera }, body: { pan, tilt, zoom } }),
      onSuccess: done,
    }),
    referenceImage: useMutation({
      mutationFn: (camera: string) => api(mappingRoutes.setReferenceImage, { params: { camera } }),
      onSuccess: done,
    }),
  };
}
