/** Camera switches (all and one) inside the header's power menu; built by the venue issue (#4). */
export function CameraPowerSection() {
  return null;
}
