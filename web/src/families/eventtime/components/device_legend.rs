//! The key to the event-time charts' devices: each device's shape and colour, so a record's
//! device can be read from its mark even where two colours look alike.

use crate::families::eventtime::device_marks::{colour, mark_path, shape_name};
use yew::prelude::*;

/// Devices listed; beyond these the marks repeat.
const LISTED_MAX: u32 = 8;

#[derive(PartialEq)]
pub struct DeviceLegendProps {
    /// Devices in the run (keys `0..devices`).
    pub devices: u32,
}

pub fn device_legend(props: &DeviceLegendProps) -> Html {
    let listed = props.devices.min(LISTED_MAX);
    html! {
        <p class="legend device-legend" aria-label="Devices by mark">
            { for (0..listed).map(|key| html! {
                <span class="device-key" data-shape={shape_name(key)}>
                    <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
                        <path d={mark_path(key, 6.0, 6.5, 4.5)} fill={colour(key)} />
                    </svg>
                    { format!("device {key}") }
                </span>
            }) }
            if props.devices > LISTED_MAX {
                <span>{ format!("… {} devices; marks repeat every {LISTED_MAX}", props.devices) }</span>
            }
        </p>
    }
}
